// relu, affine and add equal their per-element definitions on every row range, in both precisions.

import { describe, expect, it } from 'vitest';
import { DenseMatrix } from '../../src/data/dense.js';
import { add, affine, concatRows, relu } from '../../src/workloads/dense-kernels.js';
import { randomDense } from '../support/random.js';
import { cutsOf, naiveMap, PRECISIONS, rangesOf } from './helpers.js';

describe('element-wise kernels', () => {
  for (const precision of PRECISIONS) {
    const x = randomDense(41, 7, precision, 11);
    const y = randomDense(41, 7, precision, 12);

    it(`relu matches max(v, 0) on every range (${precision})`, () => {
      for (const [b, e] of rangesOf(41)) {
        const r = relu(x, [b, e]);
        expect([r.rows, r.cols, r.precision]).toEqual([e - b, 7, precision]);
        expect(r.data).toEqual(naiveMap(x, (v) => (v > 0 ? v : 0), b, e));
      }
    });

    it(`affine matches scale * v + shift on every range (${precision})`, () => {
      for (const [b, e] of rangesOf(41)) {
        const r = affine(x, 0.85, 0.1 / 3, [b, e]);
        expect([r.rows, r.cols, r.precision]).toEqual([e - b, 7, precision]);
        expect(r.data).toEqual(naiveMap(x, (v) => 0.85 * v + 0.1 / 3, b, e));
      }
    });

    it(`add matches x + y on every range (${precision})`, () => {
      for (const [b, e] of rangesOf(41)) {
        const r = add(x, y, [b, e]);
        expect([r.rows, r.cols, r.precision]).toEqual([e - b, 7, precision]);
        expect(r.data).toEqual(naiveMap(x, (v, i, j) => v + y.get(i, j), b, e));
      }
    });

    it(`parts of each kernel join into the full result bit for bit (${precision})`, () => {
      const cuts = cutsOf(41);
      const kernels = [
        (r?: readonly [number, number]) => relu(x, r),
        (r?: readonly [number, number]) => affine(x, -2.5, 1, r),
        (r?: readonly [number, number]) => add(x, y, r),
      ];
      for (const k of kernels) {
        const parts = cuts.slice(1).map((e, i) => ({ range: [cuts[i]!, e] as const, matrix: k([cuts[i]!, e]) }));
        expect(concatRows(parts, 41).data).toEqual(k().data);
      }
    });
  }

  it('relu zeroes negatives and keeps positives (hand-checked)', () => {
    const x = new DenseMatrix(2, 2, Float32Array.of(-1.5, 2, 0, -0.25));
    expect(Array.from(relu(x).data)).toEqual([0, 2, 0, 0]);
    expect(Array.from(relu(x, [0, 1]).data)).toEqual([0, 2]);
  });

  it('affine rounds once into f32 (the f64 value, not the sum of two roundings)', () => {
    const x = new DenseMatrix(1, 1, Float32Array.of(1 / 3));
    const exact = (1 / 3) * Math.fround(1 / 3) + 1e-9;
    expect(affine(x, 1 / 3, 1e-9).data[0]).toBe(Math.fround(exact));
  });
});
