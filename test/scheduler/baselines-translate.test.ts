// Portable mappings: portableMapping names devices and shares per operator; translateMapping
// gives them back as a genome, exactly on the same input and by the nearest shares on another.

import { describe, expect, it } from 'vitest';
import { portableMapping, translateMapping } from '../../src/scheduler/baselines.js';
import { buildChoices } from '../../src/scheduler/candidates.js';
import type { Choice } from '../../src/scheduler/space.js';
import { bindWorkload } from '../../src/workloads/bind.js';
import { workload } from '../../src/workloads/library.js';
import { gridInput, smallGraph, threeDeviceSystem } from './schedule-fixtures.js';

const system = threeDeviceSystem();
const time = (_op: unknown, d: number): number => [1, 2, 4][d]!;
const gcn = workload('gcn');
const here = bindWorkload(gcn, smallGraph());
const hereChoices = buildChoices(here, system, [0, 1, 2], {}, time);
const there = bindWorkload(gcn, gridInput());
const thereChoices = buildChoices(there, system, [0, 1, 2], {}, time);
const names = (c: Choice): string => c.parts.map((p) => system.devices[p.device]!.name).join();

/** Every choice of every operator appears in some genome (choice c of op i, op 0's choice c on the others where it exists). */
function genomes(choices: readonly (readonly Choice[])[]): Int32Array[] {
  const out: Int32Array[] = [];
  choices.forEach((opChoices, i) => {
    opChoices.forEach((_, c) => out.push(Int32Array.from(choices, (cs, j) => (j === i ? c : Math.min(c, cs.length - 1)))));
  });
  return out;
}

describe('translateMapping', () => {
  it('round-trips portableMapping on the same input', () => {
    for (const g of genomes(hereChoices)) {
      const m = portableMapping(here, system, hereChoices, g);
      expect(m.map((x) => x.op)).toEqual(here.ops.map((o) => o.id));
      expect(translateMapping(m, here, system, hereChoices)).toEqual(g);
    }
  });

  it('maps to the same devices at the nearest shares on another input', () => {
    let moved = 0;
    for (const g of genomes(hereChoices)) {
      const m = portableMapping(here, system, hereChoices, g);
      const t = translateMapping(m, there, system, thereChoices)!;
      t.forEach((c, i) => {
        const want = m[i]!;
        const got = thereChoices[i]![c]!;
        expect(names(got)).toBe(want.devices.join());
        const dist = (ch: Choice): number => ch.parts.reduce((s, p, j) => s + Math.abs(p.fraction - want.shares[j]!), 0);
        const best = Math.min(...thereChoices[i]!.filter((ch) => names(ch) === want.devices.join()).map(dist));
        expect(dist(got)).toBe(best);
        if (got.parts.length > 1 && got.parts[0]!.fraction !== want.shares[0]) moved++;
      });
    }
    expect(moved).toBeGreaterThan(0); // the inputs differ, so some shares do
  });

  it('falls back to a whole choice on one of the mapping devices, and gives null when there is none', () => {
    const split = hereChoices[1]!.findIndex((c) => names(c) === 'gpu,cgra');
    const g = new Int32Array(here.ops.length);
    g[1] = split;
    const m = portableMapping(here, system, hereChoices, g); // agg1 split over gpu and cgra, the rest on gpu
    const noGpu = buildChoices(there, system, [1, 2], {}, time);
    expect(translateMapping(m, there, system, noGpu)).toBeNull(); // xw1 runs on gpu alone
    const noneOnGpu = m.map((x, i) => (i === 1 ? x : { ...x, devices: ['cgra'], shares: [1] }));
    const t = translateMapping(noneOnGpu, there, system, noGpu)!;
    expect(noGpu[1]![t[1]!]!.label).toBe('cgra');
  });

  it('gives null when an operator is missing from the mapping', () => {
    const m = portableMapping(here, system, hereChoices, new Int32Array(here.ops.length));
    expect(translateMapping(m.slice(1), here, system, hereChoices)).toBeNull();
  });
});
