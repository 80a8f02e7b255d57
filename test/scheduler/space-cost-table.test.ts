// CostTable flattens the choices into typed arrays: per operator a base and a count of choices,
// per choice a first part and a part count, per part its device, share, and the cost the source
// gives for exactly that part's range.

import { expect, it } from 'vitest';
import { buildChoices } from '../../src/scheduler/candidates.js';
import { CostTable } from '../../src/scheduler/space.js';
import { bindWorkload } from '../../src/workloads/bind.js';
import { workload } from '../../src/workloads/library.js';
import { FixedCosts, smallGraph, threeDeviceSystem } from './schedule-fixtures.js';

it('CostTable holds every choice and part, in order, with the cost of each part', () => {
  const system = threeDeviceSystem();
  const bound = bindWorkload(workload('gcn'), smallGraph());
  const choices = buildChoices(bound, system, [0, 1, 2], {}, (_op, d) => [1, 2, 4][d]!);
  const perOp: Record<string, number[]> = {};
  const perOpJ: Record<string, number[]> = {};
  bound.ops.forEach((op, i) => {
    perOp[op.id] = [1 + i, 10 + i, 100 + i];
    perOpJ[op.id] = [7 * (1 + i), 5 * (1 + i), 3 * (1 + i)];
  });
  const source = new FixedCosts(perOp, perOpJ);
  const table = new CostTable(choices, bound.ops, source);

  const totalParts = choices.flat().reduce((s, c) => s + c.parts.length, 0);
  expect(source.calls).toBe(totalParts); // one call per part
  expect(table.partDevice).toHaveLength(totalParts);
  expect(Array.from(table.cardinality)).toEqual(choices.map((c) => c.length));
  expect(Array.from(table.choiceCount)).toEqual(choices.map((c) => c.length));

  let g = 0;
  let p = 0;
  choices.forEach((opChoices, i) => {
    expect(table.choiceBase[i]).toBe(g);
    for (const ch of opChoices) {
      expect(table.partBegin[g]).toBe(p);
      expect(table.partCount[g]).toBe(ch.parts.length);
      for (const part of ch.parts) {
        const want = source.cost(bound.ops[i]!, part.device, part.begin, part.end);
        expect(table.partDevice[p]).toBe(part.device);
        expect(table.partFraction[p]).toBe(part.fraction);
        expect(table.partSeconds[p]).toBe(want.seconds);
        expect(table.partJoules[p]).toBe(want.joules);
        p++;
      }
      g++;
    }
  });
  expect(p).toBe(totalParts);
  expect(table.cardinality).not.toBe(table.choiceCount); // a copy the search may keep
});
