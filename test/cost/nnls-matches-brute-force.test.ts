// nnls finds the same optimum as trying every active set, on random systems where some
// coefficients must be clamped at zero.

import { describe, expect, it } from 'vitest';
import { nnls } from '../../src/cost/nnls.js';
import { bruteForceNnls, randomMatrix, randomVector, residualNorm } from './helpers.js';

describe('nnls against brute force', () => {
  for (const [rows, cols] of [
    [8, 3],
    [20, 5],
    [50, 8],
    [4, 6], // more columns than rows: the passive set is still independent
  ] as const) {
    it(`agrees on random ${rows}x${cols} systems`, () => {
      for (let seed = 1; seed <= 25; seed++) {
        const a = randomMatrix(rows, cols, seed * 7 + cols);
        const b = randomVector(rows, seed * 13 + rows);
        const x = nnls(a, rows, cols, b);
        const ref = bruteForceNnls(a, rows, cols, b);
        expect(x.every((v) => v >= 0)).toBe(true);
        const got = residualNorm(a, rows, cols, x, b);
        const want = residualNorm(a, rows, cols, ref, b);
        expect(got).toBeLessThanOrEqual(want * (1 + 1e-10) + 1e-12);
        if (rows >= cols) for (let j = 0; j < cols; j++) expect(x[j]).toBeCloseTo(ref[j]!, 8);
      }
    });
  }

  it('clamps a coefficient the unconstrained fit would make negative', () => {
    // b = 2 * col0 - 1 * col1 exactly; with x >= 0 the best is x1 = 0.
    const a = Float64Array.of(1, 0, 1, 1, 1, 2);
    const b = Float64Array.of(2, 1, 0);
    const x = nnls(a, 3, 2, b);
    expect(x[1]).toBe(0);
    expect(x[0]).toBeCloseTo(1, 12); // mean of b on col0
  });
});
