// fitRelative recovers a cost model's coefficients and weights small and large inputs alike.

import { describe, expect, it } from 'vitest';
import { fitRelative } from '../../src/cost/fit.js';
import { lcg } from '../support/random.js';

/** Terms [1, nnz, nnz * k] for inputs from 1e2 to 1e8 non-zeros. */
function spmmTerms(rows: number): Float64Array {
  const t = new Float64Array(rows * 3);
  for (let i = 0; i < rows; i++) {
    const nnz = 100 * 10 ** ((6 * i) / (rows - 1));
    const k = 1 + (i % 5) * 8;
    t.set([1, nnz, nnz * k], i * 3);
  }
  return t;
}

function predict(terms: Float64Array, cols: number, c: readonly number[], row: number): number {
  let s = 0;
  for (let j = 0; j < cols; j++) s += terms[row * cols + j]! * c[j]!;
  return s;
}

describe('fitRelative', () => {
  const rows = 30;
  const terms = spmmTerms(rows);
  const truth = [5e-6, 1e-9, 2e-10];

  it('recovers exact coefficients with zero error', () => {
    const y = Float64Array.from({ length: rows }, (_, i) => predict(terms, 3, truth, i));
    const fit = fitRelative(terms, rows, 3, y);
    truth.forEach((c, j) => expect(Math.abs(fit.coefficients[j]! - c) / c).toBeLessThan(1e-8));
    expect(fit.mape).toBeLessThan(1e-9);
    expect(fit.residualSpread.max).toBeLessThan(1e-9);
    expect(fit.rows).toBe(rows);
  });

  it('keeps the relative error of the smallest inputs as low as of the largest', () => {
    // 5% multiplicative noise: an absolute fit would sacrifice the 1e2-nnz rows to the 1e8 ones.
    const rnd = lcg(42);
    const y = Float64Array.from({ length: rows }, (_, i) => predict(terms, 3, truth, i) * (1 + 0.1 * (rnd() - 0.5)));
    const fit = fitRelative(terms, rows, 3, y);
    const rel = (i: number) => Math.abs(predict(terms, 3, Array.from(fit.coefficients), i) - y[i]!) / y[i]!;
    for (let i = 0; i < 5; i++) expect(rel(i)).toBeLessThan(0.12);
    expect(fit.mape).toBeLessThan(0.05);
    expect(fit.residualSpread.median).toBeLessThanOrEqual(fit.residualSpread.p90);
    expect(fit.residualSpread.p90).toBeLessThanOrEqual(fit.residualSpread.max);
    expect(fit.residualSpread.max).toBeLessThan(0.1);
  });

  it('allows a negative coefficient only with nonNegative: false', () => {
    // y = 10 - 1 * x: the constrained fit must clamp the slope at 0.
    const t = Float64Array.of(1, 1, 1, 2, 1, 3, 1, 4);
    const y = Float64Array.of(9, 8, 7, 6);
    const free = fitRelative(t, 4, 2, y, { nonNegative: false });
    expect(free.coefficients[0]).toBeCloseTo(10, 9);
    expect(free.coefficients[1]).toBeCloseTo(-1, 9);
    const constrained = fitRelative(t, 4, 2, y);
    expect(constrained.coefficients[1]).toBe(0);
    expect(constrained.mape).toBeGreaterThan(0);
  });
});
