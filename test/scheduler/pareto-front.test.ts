import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/generators/rng.js';
import { paretoFront } from '../../src/scheduler/pareto.js';
import { bruteFront, lexCompare, randomPoints } from './helpers.js';

function sortedIds(ids: ArrayLike<number>): number[] {
  return Array.from(ids).sort((a, b) => a - b);
}

describe('paretoFront agrees with the O(n^2) definition', () => {
  const rng = new Rng(11);
  for (const m of [2, 3] as const) {
    // Continuous values, few levels (ties and exact duplicates everywhere), and sizes on both
    // sides of the switch from merge sort to radix sort.
    for (const [n, levels] of [
      [1, undefined],
      [7, 3],
      [60, undefined],
      [300, 4],
      [300, 12],
      [2500, undefined],
      [2500, 6],
    ] as const) {
      it(`m = ${m}, ${n} points${levels ? `, ${levels} levels` : ''}`, () => {
        for (let trial = 0; trial < 3; trial++) {
          const v = randomPoints(rng, n, m, levels);
          const all = Array.from({ length: n }, (_, i) => i);
          const front = paretoFront(v, m, n);
          expect(sortedIds(front)).toEqual(bruteFront(v, m, all));
          for (let i = 1; i < front.length; i++) expect(lexCompare(v, m, front[i - 1]!, front[i]!)).toBeLessThan(0);
        }
      });
    }
  }

  it('a front as large as the input (points on a plane, 3 objectives) is returned whole', () => {
    const n = 3000;
    const perm = Array.from({ length: n }, (_, i) => i);
    const r = new Rng(5);
    for (let i = n - 1; i > 0; i--) {
      const j = r.nextInt(i + 1);
      [perm[i], perm[j]] = [perm[j]!, perm[i]!];
    }
    const v = new Float64Array(3 * n);
    for (let i = 0; i < n; i++) v.set([i, perm[i]!, n - perm[i]!], 3 * i);
    expect(sortedIds(paretoFront(v, 3, n))).toEqual(perm.map((_, i) => i));
  });

  it('a 2-objective front of 2000 points with every point duplicated keeps each first copy (radix path)', () => {
    const n = 4000;
    const r = new Rng(6);
    const order = Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = r.nextInt(i + 1);
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const v = new Float64Array(2 * n);
    order.forEach((slot, i) => v.set([slot >> 1, 2000 - (slot >> 1)], 2 * i));
    // Every point is on the front; of the two copies of (s, 2000 - s) the lower index stays.
    const first = new Array<number>(2000).fill(-1);
    order.forEach((slot, i) => {
      if (first[slot >> 1] === -1) first[slot >> 1] = i;
    });
    expect(Array.from(paretoFront(v, 2, n))).toEqual(first);
  });

  it('keeps the first of exact duplicates, treats -0 as 0, and only looks at included rows', () => {
    const v = new Float64Array([3, 1, 1, 3, 1, 3, 0, 0, 2, 2, -0, 0, 5, 5]);
    expect(Array.from(paretoFront(v, 2, 7, (i) => i !== 3))).toEqual([5]);
    expect(Array.from(paretoFront(v, 2, 3))).toEqual([1, 0]);
    expect(Array.from(paretoFront(v, 2, 5, (i) => i !== 3))).toEqual([1, 4, 0]);
    expect(Array.from(paretoFront(v, 2, 0))).toEqual([]);
    expect(Array.from(paretoFront(v, 2, 7, () => false))).toEqual([]);
  });

  it('ignores NaN in excluded rows and accepts infinite objectives', () => {
    // (1, inf) dominates (2, inf); (inf, 0) is non-dominated; row 0 holds a NaN but is excluded.
    const v = new Float64Array([NaN, 1, 2, Infinity, 1, Infinity, Infinity, 0]);
    expect(Array.from(paretoFront(v, 2, 4, (i) => i > 0))).toEqual([2, 3]);
  });
});
