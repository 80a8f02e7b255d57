// Native SpMM equals the TypeScript reference for every value type, precision and width.

import { describe, expect, it } from 'vitest';
import { CsrMatrix } from '../../src/data/csr.js';
import { DenseMatrix } from '../../src/data/dense.js';
import { spmm } from '../../src/kernels/spmm.js';
import { firstSpmmMismatch } from '../support/compare.js';
import { randomDense, skewedMatrix } from '../support/random.js';

const WIDTHS = [1, 2, 3, 4, 8, 16, 17, 32, 64, 128];

describe('spmm matches the reference', () => {
  for (const values of ['pattern', 'f32', 'f64'] as const) {
    for (const precision of ['f32', 'f64'] as const) {
      it(`values ${values}, dense ${precision}, k in ${WIDTHS.join(',')}`, async () => {
        const a = skewedMatrix(3000, 2500, 60_000, 7, values);
        for (const k of WIDTHS) {
          const x = randomDense(a.cols, k, precision, k);
          const y = await spmm(a, x);
          expect(y.rows).toBe(a.rows);
          expect(y.cols).toBe(k);
          expect(y.precision).toBe(precision);
          expect(firstSpmmMismatch(a, x.data, k, y.data)).toBe(-1);
        }
      });
    }
  }

  it('splits one enormous row across threads (merge path carries)', async () => {
    const n = 400_000;
    const colIdx = Int32Array.from({ length: n }, (_, i) => i);
    const values = Float64Array.from({ length: n }, (_, i) => ((i % 7) - 3) / 4);
    const a = new CsrMatrix({ rows: 3, cols: n, rowPtr: Int32Array.of(0, 1, n - 1, n), colIdx, values });
    const x = randomDense(n, 8, 'f64', 3);
    const y = await spmm(a, x);
    expect(firstSpmmMismatch(a, x.data, 8, y.data)).toBe(-1);
  });

  it('writes zeros for empty rows and handles an empty matrix', async () => {
    const a = new CsrMatrix({ rows: 4, cols: 3, rowPtr: Int32Array.of(0, 0, 2, 2, 2), colIdx: Int32Array.of(0, 2) });
    const x = new DenseMatrix(3, 2, Float32Array.of(1, 2, 3, 4, 5, 6));
    const out = new DenseMatrix(4, 2, new Float32Array(8).fill(99));
    await spmm(a, x, { out });
    expect([...out.data]).toEqual([0, 0, 6, 8, 0, 0, 0, 0]);
    const empty = new CsrMatrix({ rows: 0, cols: 0, rowPtr: Int32Array.of(0), colIdx: new Int32Array(0) });
    const y = await spmm(empty, DenseMatrix.zeros(0, 4));
    expect(y.rows).toBe(0);
  });

  it('accepts 64-bit row pointers', async () => {
    const a = skewedMatrix(500, 400, 5000, 11, 'f32');
    const wide = new CsrMatrix({
      rows: a.rows,
      cols: a.cols,
      rowPtr: BigInt64Array.from(a.rowPtr as Int32Array, (v) => BigInt(v)),
      colIdx: a.colIdx,
      values: a.values,
    });
    for (const k of [1, 5, 32]) {
      const x = randomDense(a.cols, k, 'f32', 5);
      const y = await spmm(wide, x);
      expect(firstSpmmMismatch(a, x.data, k, y.data)).toBe(-1);
    }
  });
});
