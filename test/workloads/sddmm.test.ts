// sddmm computes dot(u_i, v_j) * a_ij on a's structure, per row range, for pattern and valued a.

import { describe, expect, it } from 'vitest';
import { CsrMatrix } from '../../src/data/csr.js';
import { DenseMatrix, type Precision } from '../../src/data/dense.js';
import { concatCsrRows, sddmm } from '../../src/workloads/dense-kernels.js';
import { randomCsr } from '../data/helpers.js';
import { randomDense } from '../support/random.js';
import { alloc, csr, cutsOf, entries, PRECISIONS, rangesOf } from './helpers.js';

/** The expected values of rows [begin, end): one dot product per stored entry, in double. */
function naiveSddmm(a: CsrMatrix, u: DenseMatrix, v: DenseMatrix, precision: Precision, begin: number, end: number): Float32Array | Float64Array {
  const es = entries(a, begin, end);
  const out = alloc(precision, es.length);
  es.forEach(([r, c, value], p) => {
    let dot = 0;
    for (let t = 0; t < u.cols; t++) dot += u.get(begin + r, t) * v.get(c, t);
    out[p] = dot * value;
  });
  return out;
}

describe('sddmm', () => {
  for (const precision of PRECISIONS) {
    for (const kind of ['pattern', precision] as const) {
      it(`matches the per-entry dot product on every range (${kind} a, ${precision} u and v)`, () => {
        const a = randomCsr(23, 17, 5, { values: kind, density: 0.25 });
        const u = randomDense(23, 6, precision, 1);
        const v = randomDense(17, 6, precision, 2);
        for (const [b, e] of rangesOf(23)) {
          const s = sddmm(a, u, v, [b, e]);
          expect([s.rows, s.cols, s.nnz]).toEqual([e - b, 17, a.rowStart(e) - a.rowStart(b)]);
          expect(s.rowStart(0)).toBe(0);
          expect(s.values).toEqual(naiveSddmm(a, u, v, precision, b, e));
          expect(entries(s).map(([r, c]) => [r, c])).toEqual(entries(a, b, e).map(([r, c]) => [r, c]));
        }
      });

      it(`joins range parts into the full result bit for bit (${kind} a, ${precision})`, () => {
        const a = randomCsr(40, 40, 6, { values: kind, density: 0.2 });
        const u = randomDense(40, 5, precision, 3);
        const v = randomDense(40, 5, precision, 4);
        const full = sddmm(a, u, v);
        const cuts = cutsOf(40);
        const parts = cuts.slice(1).map((e, i) => ({ range: [cuts[i]!, e] as const, matrix: sddmm(a, u, v, [cuts[i]!, e]) }));
        const joined = concatCsrRows(parts, 40);
        expect(joined.rowPtr).toEqual(full.rowPtr);
        expect(joined.colIdx).toEqual(full.colIdx);
        expect(joined.values).toEqual(full.values);
        expect(joined.sortedColumns).toBe(full.sortedColumns);
      });
    }
  }

  it('computes hand-checked values on a valued 2x3 matrix', () => {
    const a = csr(
      3,
      [
        [
          [0, 2],
          [2, -1],
        ],
        [[1, 0.5]],
      ],
      'f64',
    );
    const u = new DenseMatrix(2, 2, Float64Array.of(1, 2, 3, 4));
    const v = new DenseMatrix(3, 2, Float64Array.of(1, 1, 0, 1, 2, 0));
    // (0,0): (1+2)*2 = 6; (0,2): 2*-1 = -2; (1,1): 4*0.5 = 2
    expect(Array.from(sddmm(a, u, v).values!)).toEqual([6, -2, 2]);
    const lower = sddmm(a, u, v, [1, 2]);
    expect(Array.from(lower.rowPtr as Int32Array)).toEqual([0, 1]);
    expect(Array.from(lower.values!)).toEqual([2]);
  });

  it('keeps duplicates and unsorted rows as stored, and reports the sortedness of the slice', () => {
    const a = randomCsr(12, 9, 4, { values: 'f64', messy: true, density: 0.5 });
    expect(a.sortedColumns).toBe(false);
    const u = randomDense(12, 3, 'f64', 5);
    const v = randomDense(9, 3, 'f64', 6);
    const s = sddmm(a, u, v);
    expect(s.colIdx).toEqual(a.colIdx);
    expect(s.sortedColumns).toBe(false);
    expect(s.values).toEqual(naiveSddmm(a, u, v, 'f64', 0, 12));
    // A single stored entry per row is sorted, whatever the whole matrix is.
    const sorted = csr(3, [[2], [1]], 'f64');
    expect(sddmm(sorted, randomDense(2, 2, 'f64', 1), randomDense(3, 2, 'f64', 2), [0, 1]).sortedColumns).toBe(true);
    // A repeated column is not strictly increasing.
    const repeated = csr(3, [[0, 1, 1]], 'f64');
    expect(sddmm(repeated, randomDense(1, 2, 'f64', 1), randomDense(3, 2, 'f64', 2)).sortedColumns).toBe(false);
  });

  it('accepts 64-bit row pointers and returns 32-bit ones when they fit', () => {
    const narrow = randomCsr(10, 10, 9, { values: 'f32' });
    const wide = new CsrMatrix({
      rows: 10,
      cols: 10,
      rowPtr: BigInt64Array.from(narrow.rowPtr as Int32Array, BigInt),
      colIdx: narrow.colIdx,
      values: narrow.values,
    });
    const u = randomDense(10, 4, 'f32', 7);
    const v = randomDense(10, 4, 'f32', 8);
    const s = sddmm(wide, u, v, [2, 9]);
    expect(s.rowPtr).toBeInstanceOf(Int32Array);
    expect(s.values).toEqual(sddmm(narrow, u, v, [2, 9]).values);
  });
});
