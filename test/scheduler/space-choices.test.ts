// buildChoices with the user's split ratios: per operator, one whole choice per capable device,
// two-way splits at the given ratios plus the balanced one, and three-way splits; parts
// contiguous and labelled by share. (The default space, the share grid, is space-grid.test.ts.)

import { describe, expect, it } from 'vitest';
import { buildChoices } from '../../src/scheduler/candidates.js';
import type { Choice } from '../../src/scheduler/space.js';
import { bindChain, threeDeviceSystem } from './schedule-fixtures.js';

const system = threeDeviceSystem();
const names = system.devices.map((d) => d.name);
const bound = bindChain();
const a = bound.values[bound.ops[0]!.operands[0]!]!.pattern!;
const nnz = Number(a.rowPtr[a.rows]!);
let maxRow = 0;
for (let r = 0; r < a.rows; r++) maxRow = Math.max(maxRow, Number(a.rowPtr[r + 1]!) - Number(a.rowPtr[r]!));
/** A split boundary lands on a row, so a share can be off by at most the heaviest row's share. */
const slack = maxRow / nnz;

const times = [1, 2, 4];
const choices = buildChoices(bound, system, [0, 1, 2], { splitRatios: [0.25, 0.5, 0.75] }, (_op, d) => times[d]!);
const spmm = choices[0]!;
const devicesOf = (c: Choice): number[] => c.parts.map((p) => p.device);

describe('buildChoices on a sparse operator and three capable devices', () => {
  it('starts with one whole choice per capable device, in system order, labelled by the device', () => {
    const singles = spmm.filter((c) => c.parts.length === 1);
    expect(singles.map((c) => c.label)).toEqual(names);
    expect(spmm.slice(0, 3)).toEqual(singles);
    for (const [d, c] of singles.entries()) expect(c.parts).toEqual([{ device: d, begin: 0, end: bound.ops[0]!.units, fraction: 1, rowFraction: 1 }]);
  });

  it('offers each pair of devices at every ratio plus the time-balanced share', () => {
    for (const [x, y] of [
      [0, 1],
      [0, 2],
      [1, 2],
    ] as const) {
      const pair = spmm.filter((c) => c.parts.length === 2 && devicesOf(c).join() === `${x},${y}`);
      const balanced = times[y]! / (times[x]! + times[y]!); // shares inversely proportional to time
      const expected = [0.25, 0.5, 0.75, balanced];
      expect(pair).toHaveLength(expected.length);
      const shares = pair.map((c) => c.parts[0]!.fraction);
      for (const [k, s] of expected.entries()) expect(Math.abs(shares[k]! - s), `pair ${x},${y} share ${s}`).toBeLessThanOrEqual(slack);
    }
  });

  it('offers three-way splits in equal thirds and in inverse proportion to time', () => {
    const triples = spmm.filter((c) => c.parts.length === 3);
    expect(triples).toHaveLength(2);
    for (const c of triples) expect(devicesOf(c)).toEqual([0, 1, 2]);
    const inv = times.map((t) => 1 / t);
    const sum = inv.reduce((s, x) => s + x, 0);
    const want = [[1 / 3, 1 / 3, 1 / 3], inv.map((x) => x / sum)];
    for (const [k, c] of triples.entries()) {
      for (const [j, p] of c.parts.entries()) expect(Math.abs(p.fraction - want[k]![j]!)).toBeLessThanOrEqual(2 * slack);
    }
  });

  it('has 3 whole + 3 pairs x 4 + 2 three-way choices and no duplicate', () => {
    expect(spmm).toHaveLength(3 + 12 + 2);
    const keys = spmm.map((c) => c.parts.map((p) => `${p.device}:${p.begin}-${p.end}`).join(','));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('cuts every split into contiguous parts that cover the rows and whose shares sum to 1', () => {
    const units = bound.ops[0]!.units;
    for (const c of spmm) {
      expect(c.parts[0]!.begin).toBe(0);
      expect(c.parts.at(-1)!.end).toBe(units);
      for (let j = 1; j < c.parts.length; j++) expect(c.parts[j]!.begin).toBe(c.parts[j - 1]!.end);
      for (const p of c.parts) expect(p.end).toBeGreaterThan(p.begin);
      expect(c.parts.reduce((s, p) => s + p.fraction, 0)).toBeCloseTo(1, 12);
    }
  });

  it('labels a split by device and rounded share', () => {
    for (const c of spmm.filter((x) => x.parts.length > 1)) {
      expect(c.label).toBe(c.parts.map((p) => `${names[p.device]} ${Math.round(p.fraction * 100)}%`).join(' + '));
    }
  });
});

describe('buildChoices options and allowed devices', () => {
  it('leaves the balanced share out when a ratio is within 0.03 of it', () => {
    const even = buildChoices(bound, system, [0, 1, 2], { splitRatios: [0.25, 0.5, 0.75] }, () => 1)[0]!; // balanced = 0.5, a ratio already
    const pair = even.filter((c) => c.parts.length === 2 && devicesOf(c).join() === '0,1');
    expect(pair).toHaveLength(3);
  });

  it('uses the given splitRatios', () => {
    const mine = buildChoices(bound, system, [0, 1], { splitRatios: [0.4] }, (_op, d) => times[d]!)[0]!;
    const pair = mine.filter((c) => c.parts.length === 2);
    expect(pair).toHaveLength(2); // 0.4 and the balanced 2/3
    expect(Math.abs(pair[0]!.parts[0]!.fraction - 0.4)).toBeLessThanOrEqual(slack);
    expect(Math.abs(pair[1]!.parts[0]!.fraction - 2 / 3)).toBeLessThanOrEqual(slack);
  });

  it('offers only the allowed devices', () => {
    const only = buildChoices(bound, system, [1, 2], {}, (_op, d) => times[d]!);
    for (const ops of only) for (const c of ops) for (const p of c.parts) expect([1, 2]).toContain(p.device);
    expect(only[0]!.filter((c) => c.parts.length === 1).map((c) => c.label)).toEqual(['gpu2', 'cgra']);
    expect(only[0]!.some((c) => c.parts.length === 3)).toBe(false); // two devices cannot make a three-way split
  });
});
