// nnls is invariant to the units of b and of each column: timings in seconds (tiny numbers) and
// terms like nnz (huge numbers) fit as well as unit-sized ones.

import { describe, expect, it } from 'vitest';
import { nnls } from '../../src/cost/nnls.js';

describe('nnls scaling', () => {
  it('recovers exact coefficients across 12 orders of magnitude', () => {
    const rows = 40;
    const a = new Float64Array(rows * 3);
    const b = new Float64Array(rows);
    const truth = [3e-6, 2.5e-10, 4e-13]; // s, s per nnz, s per nnz * k^2
    for (let i = 0; i < rows; i++) {
      const nnz = 1e3 * 1.3 ** i;
      const terms = [1, nnz, nnz * (1 + (i % 7)) ** 2];
      terms.forEach((t, j) => (a[i * 3 + j] = t));
      b[i] = terms.reduce((s, t, j) => s + t * truth[j]!, 0);
    }
    const x = nnls(a, rows, 3, b);
    truth.forEach((t, j) => expect(Math.abs(x[j]! - t) / t).toBeLessThan(1e-9));
  });

  it('gives the same relative answer for b scaled by 1e-12', () => {
    const a = Float64Array.of(1, 2, 3, 1, 0.5, 4, 2, 2, 2, 1, 1, 7);
    const b = Float64Array.of(1, 3, 2, 5);
    const x1 = nnls(a, 4, 3, b);
    const x2 = nnls(
      a,
      4,
      3,
      b.map((v) => v * 1e-12),
    );
    x1.forEach((v, j) => expect(x2[j]! * 1e12).toBeCloseTo(v, 9));
    expect(x1.some((v) => v > 0)).toBe(true);
  });

  it('returns zeros for b = 0 and for an all-zero column', () => {
    expect(Array.from(nnls(Float64Array.of(1, 2, 3, 4), 2, 2, new Float64Array(2)))).toEqual([0, 0]);
    const x = nnls(Float64Array.of(0, 1, 0, 2), 2, 2, Float64Array.of(1, 2));
    expect(x[0]).toBe(0);
    expect(x[1]).toBeCloseTo(1, 12);
  });

  it('solves a rank-deficient system (duplicate columns) without NaN', () => {
    const a = Float64Array.of(1, 1, 2, 2, 3, 3);
    const x = nnls(a, 3, 2, Float64Array.of(2, 4, 6));
    expect(x.every((v) => Number.isFinite(v) && v >= 0)).toBe(true);
    expect(x[0]! + x[1]!).toBeCloseTo(2, 6);
  });
});
