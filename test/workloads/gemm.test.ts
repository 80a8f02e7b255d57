// gemm equals the textbook triple loop bit for bit, on every row range, and range parts join up.

import { describe, expect, it } from 'vitest';
import { DenseMatrix } from '../../src/data/dense.js';
import { concatRows, gemm } from '../../src/workloads/dense-kernels.js';
import { randomDense } from '../support/random.js';
import { cutsOf, naiveGemm, PRECISIONS, rangesOf } from './helpers.js';

// f not a multiple of 4 and odd row counts exercise every remainder path of the blocked loop;
// 150 rows of f32 cross the widening block (64 rows) twice.
const SHAPES: Array<[number, number, number]> = [
  [1, 1, 1],
  [7, 5, 3],
  [150, 64, 16],
  [33, 9, 1],
  [6, 0, 4],
  [5, 3, 0],
  [0, 4, 2],
];

describe('gemm', () => {
  for (const precision of PRECISIONS) {
    for (const [n, f, h] of SHAPES) {
      it(`matches the triple loop exactly for ${n}x${f} * ${f}x${h} ${precision}`, () => {
        const x = randomDense(n, f, precision, n * 31 + f);
        const w = randomDense(f, h, precision, h * 17 + 5);
        for (const [b, e] of rangesOf(n)) {
          const y = gemm(x, w, [b, e]);
          expect(y.rows).toBe(e - b);
          expect(y.cols).toBe(h);
          expect(y.precision).toBe(precision);
          expect(y.data).toEqual(naiveGemm(x, w, b, e));
        }
        expect(gemm(x, w).data).toEqual(naiveGemm(x, w));
      });
    }

    it(`joins row-range parts into the full product bit for bit (${precision})`, () => {
      const x = randomDense(151, 12, precision, 3);
      const w = randomDense(12, 7, precision, 4);
      const full = gemm(x, w);
      const cuts = cutsOf(151);
      const parts = cuts.slice(1).map((e, i) => ({ range: [cuts[i]!, e] as const, matrix: gemm(x, w, [cuts[i]!, e]) }));
      expect(concatRows(parts.reverse(), 151).data).toEqual(full.data);
    });
  }

  it('gives the same f32 result whether or not the f64 path ran before (no shared state)', () => {
    const x = randomDense(70, 10, 'f32', 8);
    const w = randomDense(10, 6, 'f32', 9);
    const before = gemm(x, w).data;
    gemm(new DenseMatrix(70, 10, Float64Array.from(x.data)), new DenseMatrix(10, 6, Float64Array.from(w.data)));
    expect(gemm(x, w).data).toEqual(before);
  });

  it('computes a hand-checked product', () => {
    const x = new DenseMatrix(2, 3, Float64Array.of(1, 2, 3, 4, 5, 6));
    const w = new DenseMatrix(3, 2, Float64Array.of(1, 0, 0, 1, 1, 1));
    expect(Array.from(gemm(x, w).data)).toEqual([4, 5, 10, 11]);
    expect(Array.from(gemm(x, w, [1, 2]).data)).toEqual([10, 11]);
  });
});
