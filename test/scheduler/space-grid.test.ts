// The planner's default space is the share grid (the oracle's too): two-way splits every 4%,
// three-way every 10%, the balance points of the model's whole-operator predictions, and the
// share where two parts' predicted times cross. The old space offered three fixed ratios and
// one balanced share, so a best split at 80/20 could only be had as 75/25 (14% slower on cora).

import { describe, expect, it } from 'vitest';
import { buildChoices } from '../../src/scheduler/candidates.js';
import { bindChain, threeDeviceSystem } from './schedule-fixtures.js';

const system = threeDeviceSystem();
const bound = bindChain();
const times = [1, 2, 4];
// Part times proportional to the share of work a part holds, at each device's speed.
const partSeconds = (_op: unknown, d: number, b: number, e: number): number => (times[d]! * (e - b)) / bound.ops[0]!.units;

describe('the planner space on the share grid', () => {
  const spmm = buildChoices(bound, system, [0, 1, 2], {}, (_op, d) => times[d]!, partSeconds)[0]!;
  const pair01 = spmm.filter((c) => c.parts.length === 2 && c.parts[0]!.device === 0 && c.parts[1]!.device === 1).map((c) => c.parts[0]!.fraction);

  it('keeps the whole choices first, one per device', () => {
    expect(spmm.slice(0, 3).map((c) => c.parts.length)).toEqual([1, 1, 1]);
  });

  it('offers a two-way share every 4%, so any share is within 2% (and a row) of one', () => {
    for (let s = 0.04; s < 0.97; s += 0.01) {
      const nearest = Math.min(...pair01.map((x) => Math.abs(x - s)));
      expect(nearest, `share ${s.toFixed(2)}`).toBeLessThan(0.06); // a Kronecker graph's heavy rows make the steps uneven
    }
    expect(pair01.length).toBeGreaterThan(15);
  });

  it('adds the balance point of the predictions: parts that finish together', () => {
    const balanced = times[1]! / (times[0]! + times[1]!);
    expect(Math.min(...pair01.map((x) => Math.abs(x - balanced)))).toBeLessThan(0.03);
  });

  it('offers three-way splits on a 10% grid and re-balanced ones', () => {
    const triples = spmm.filter((c) => c.parts.length === 3);
    expect(triples.length).toBeGreaterThanOrEqual(30);
  });

  it('gives no choice twice', () => {
    const keys = spmm.map((c) => c.parts.map((p) => `${p.device}:${p.begin}`).join(','));
    expect(new Set(keys).size).toBe(keys.length);
  });
});
