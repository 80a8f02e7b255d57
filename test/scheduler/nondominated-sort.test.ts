import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/generators/rng.js';
import { crowdingDistance, nonDominatedSort } from '../../src/scheduler/pareto.js';
import { bruteRanks, lexCompare, randomPoints } from './helpers.js';

describe('nonDominatedSort', () => {
  const rng = new Rng(31);
  for (const m of [2, 3] as const) {
    for (const [n, levels] of [
      [50, undefined],
      [150, 4],
      [1600, 9],
    ] as const) {
      it(`gives every point its peeling rank (m = ${m}, ${n} points${levels ? `, ${levels} levels` : ''})`, () => {
        const v = randomPoints(rng, n, m, levels);
        // A subset, given out of order, to check that only the listed rows are ranked.
        const ids = Array.from({ length: n }, (_, i) => n - 1 - i).filter((i) => i % 5 !== 2);
        const fronts = nonDominatedSort(v, m, Int32Array.from(ids));
        const expected = bruteRanks(v, m, ids);
        const got = new Map<number, number>();
        fronts.forEach((f, r) => {
          for (let i = 0; i < f.length; i++) {
            expect(got.has(f[i]!)).toBe(false);
            got.set(f[i]!, r);
            if (i > 0) expect(lexCompare(v, m, f[i - 1]!, f[i]!)).toBeLessThanOrEqual(0);
          }
        });
        expect(got).toEqual(expected);
      });
    }
  }

  it('puts equal points in the same front and leaves its argument alone', () => {
    const v = new Float64Array([1, 1, 2, 2, 1, 1, 0, 3, 2, 2]);
    const ids = new Int32Array([4, 3, 2, 1, 0]);
    const fronts = nonDominatedSort(v, 2, ids);
    expect(fronts.map((f) => Array.from(f))).toEqual([
      [3, 2, 0],
      [4, 1],
    ]);
    expect(Array.from(ids)).toEqual([4, 3, 2, 1, 0]);
    expect(nonDominatedSort(v, 2, new Int32Array(0))).toEqual([]);
  });
});

describe('crowdingDistance', () => {
  it('sums normalised neighbour gaps, extremes infinite', () => {
    const v = new Float64Array([0, 4, 1, 2, 4, 0]);
    expect(Array.from(crowdingDistance(v, 2, new Int32Array([0, 1, 2])))).toEqual([Infinity, 2, Infinity]);
    // Order of `front` is kept in the output; gaps 1/4 + 3/6 for the point (1, 3).
    const w = new Float64Array([4, 0, 0, 6, 2, 1, 1, 3]);
    expect(Array.from(crowdingDistance(w, 2, new Int32Array([3, 0, 2, 1])))).toEqual([
      (2 - 0) / 4 + (6 - 1) / 6,
      Infinity,
      (4 - 1) / 4 + (3 - 0) / 6,
      Infinity,
    ]);
    expect(Array.from(crowdingDistance(w, 2, new Int32Array([3, 0])))).toEqual([Infinity, Infinity]);
  });

  it('adds nothing for an objective with zero range', () => {
    const v = new Float64Array([0, 5, 1, 5, 3, 5, 4, 5]);
    expect(Array.from(crowdingDistance(v, 2, new Int32Array([0, 1, 2, 3])))).toEqual([Infinity, 0.75, 0.75, Infinity]);
  });
});
