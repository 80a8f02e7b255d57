// What is never split: element-wise operators and single-source BFS always run whole, and the
// `splits` and `maxSplit` options turn splitting off or cap the number of parts.

import { describe, expect, it } from 'vitest';
import { buildChoices } from '../../src/scheduler/candidates.js';
import type { Choice } from '../../src/scheduler/space.js';
import { bindWorkload } from '../../src/workloads/bind.js';
import { workload } from '../../src/workloads/library.js';
import { bindChain, smallGraph, threeDeviceSystem } from './schedule-fixtures.js';

const system = threeDeviceSystem();
const all = [0, 1, 2];
const time = (_op: unknown, d: number): number => [1, 2, 4][d]!;
const wholeOnly = (c: readonly Choice[]): boolean => c.every((x) => x.parts.length === 1);
const graph = smallGraph();

describe('operators that are never split', () => {
  it('keeps relu whole while the spmm before it is split', () => {
    const bound = bindChain(graph);
    const [spmm, relu] = buildChoices(bound, system, all, {}, time);
    expect(bound.ops[1]!.kind).toBe('relu');
    expect(relu!.map((c) => c.label)).toEqual(['gpu', 'gpu2', 'cgra']);
    expect(wholeOnly(spmm!)).toBe(false);
  });

  it('keeps every element-wise step of gcn, sage and pagerank whole', () => {
    for (const name of ['gcn', 'sage', 'pagerank']) {
      const bound = bindWorkload(workload(name), graph);
      const choices = buildChoices(bound, system, all, {}, time);
      bound.ops.forEach((op, i) => {
        if (['relu', 'add', 'affine', 'reduce'].includes(op.kind)) expect(wholeOnly(choices[i]!), `${name}/${op.id}`).toBe(true);
      });
    }
  });

  it('keeps a single-source BFS whole', () => {
    const bound = bindWorkload(workload('bfs'), graph);
    const [bfs] = buildChoices(bound, system, all, {}, time);
    expect(bfs!.map((c) => c.label)).toEqual(['gpu', 'gpu2', 'cgra']);
    for (const c of bfs!) expect(c.parts[0]!.begin).toBe(0);
  });
});

describe('split options', () => {
  const bound = bindWorkload(workload('gcn'), graph);

  it('splits: false leaves one whole choice per device', () => {
    const choices = buildChoices(bound, system, all, { splits: false }, time);
    for (const c of choices) expect(c.map((x) => x.label)).toEqual(['gpu', 'gpu2', 'cgra']);
  });

  it('maxSplit: 2 keeps two-way splits and drops three-way ones', () => {
    const three = buildChoices(bound, system, all, {}, time);
    const two = buildChoices(bound, system, all, { maxSplit: 2 }, time);
    const most = (cs: readonly (readonly Choice[])[]): number => Math.max(...cs.flat().map((c) => c.parts.length));
    expect(most(three)).toBe(3);
    expect(most(two)).toBe(2);
    // Exactly the three-way choices are gone.
    three.forEach((c, i) => expect(two[i]!.map((x) => x.label)).toEqual(c.filter((x) => x.parts.length < 3).map((x) => x.label)));
  });

  it('maxSplit: 1 is the same as splits: false', () => {
    const one = buildChoices(bound, system, all, { maxSplit: 1 }, time);
    for (const c of one) expect(wholeOnly(c)).toBe(true);
  });
});
