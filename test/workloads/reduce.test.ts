// reduce equals its column-wise definition on every range, and partials of disjoint ranges
// combine into the full reduction.

import { describe, expect, it } from 'vitest';
import { DenseMatrix, type Precision } from '../../src/data/dense.js';
import { combineReduce, finishReduce, reduce, reducePartial, type ReduceOp } from '../../src/workloads/dense-kernels.js';
import { lcg, randomDense } from '../support/random.js';
import { alloc, cutsOf, PRECISIONS, rangesOf } from './helpers.js';

const OPS: readonly ReduceOp[] = ['sum', 'max', 'norm2'];

function naiveReduce(x: DenseMatrix, op: ReduceOp, begin: number, end: number): Float32Array | Float64Array {
  const out = alloc(x.precision, x.cols);
  for (let j = 0; j < x.cols; j++) {
    let acc = op === 'max' ? -Infinity : 0;
    for (let i = begin; i < end; i++) {
      const v = x.get(i, j);
      if (op === 'max') acc = Math.max(acc, v);
      else if (op === 'sum') acc += v;
      else acc += v * v;
    }
    out[j] = op === 'norm2' ? Math.sqrt(acc) : acc;
  }
  return out;
}

/** Small integers: every partial sum (and sum of squares) is exact in double precision. */
function integerDense(rows: number, cols: number, precision: Precision, seed: number): DenseMatrix {
  const rnd = lcg(seed);
  const data = alloc(precision, rows * cols);
  for (let i = 0; i < data.length; i++) data[i] = Math.floor(rnd() * 2001) - 1000;
  return new DenseMatrix(rows, cols, data);
}

describe('reduce', () => {
  for (const precision of PRECISIONS) {
    const x = randomDense(53, 9, precision, 21);
    for (const op of OPS) {
      it(`${op} matches the column-wise definition on every range (${precision})`, () => {
        for (const [b, e] of rangesOf(53)) {
          if (op === 'max' && b === e) continue;
          const r = reduce(x, op, [b, e]);
          expect([r.rows, r.cols, r.precision]).toEqual([1, 9, precision]);
          expect(r.data).toEqual(naiveReduce(x, op, b, e));
        }
      });

      it(`${op} partials of disjoint ranges combine exactly (${precision})`, () => {
        const xi = integerDense(61, 5, precision, 3);
        const cuts = cutsOf(61);
        const parts = cuts.slice(1).map((e, i) => reducePartial(xi, op, [cuts[i]!, e]));
        expect(finishReduce(op, combineReduce(op, parts), precision).data).toEqual(reduce(xi, op).data);
        // Combining is associative on the accumulators: pairs of pairs give the same result.
        const nested = combineReduce(op, [combineReduce(op, parts.slice(0, 2)), combineReduce(op, parts.slice(2))]);
        expect(nested.data).toEqual(combineReduce(op, parts).data);
      });

      it(`${op} partials of random data combine to within rounding of the full reduction (${precision})`, () => {
        const cuts = cutsOf(53);
        const parts = cuts.slice(1).map((e, i) => reducePartial(x, op, [cuts[i]!, e]));
        const combined = finishReduce(op, combineReduce(op, parts), precision).data;
        const full = reduce(x, op).data;
        const tolerance = op === 'max' ? 0 : precision === 'f32' ? 1e-6 : 1e-13;
        full.forEach((v, j) => expect(Math.abs(combined[j]! - v)).toBeLessThanOrEqual(tolerance * 53));
      });
    }

    it(`partials are f64 accumulators holding sums of squares for norm2 (${precision})`, () => {
      const x3 = new DenseMatrix(2, 2, precision === 'f32' ? Float32Array.of(3, -1, 4, 2) : Float64Array.of(3, -1, 4, 2));
      const acc = reducePartial(x3, 'norm2');
      expect(acc.precision).toBe('f64');
      expect(Array.from(acc.data)).toEqual([25, 5]);
      expect(Array.from(reduce(x3, 'norm2').data)).toEqual([5, precision === 'f32' ? Math.fround(Math.sqrt(5)) : Math.sqrt(5)]);
      expect(Array.from(reduce(x3, 'max').data)).toEqual([4, 2]);
      expect(Array.from(reduce(x3, 'sum').data)).toEqual([7, 1]);
    });
  }

  it('uses the identity over an empty range: 0 for sums, -Infinity for max partials', () => {
    const x = randomDense(4, 3, 'f32', 1);
    expect(Array.from(reducePartial(x, 'sum', [2, 2]).data)).toEqual([0, 0, 0]);
    expect(Array.from(reducePartial(x, 'norm2', [2, 2]).data)).toEqual([0, 0, 0]);
    expect(Array.from(reducePartial(x, 'max', [2, 2]).data)).toEqual([-Infinity, -Infinity, -Infinity]);
    expect(Array.from(reduce(x, 'sum', [2, 2]).data)).toEqual([0, 0, 0]);
    // An empty max partial does not change a combination.
    const parts = [reducePartial(x, 'max', [0, 0]), reducePartial(x, 'max'), reducePartial(x, 'max', [4, 4])];
    expect(finishReduce('max', combineReduce('max', parts), 'f32').data).toEqual(reduce(x, 'max').data);
  });

  it('combining finished norms instead of sums of squares would be wrong (why partials exist)', () => {
    const x = new DenseMatrix(2, 1, Float64Array.of(3, 4));
    const parts = [reducePartial(x, 'norm2', [0, 1]), reducePartial(x, 'norm2', [1, 2])];
    expect(finishReduce('norm2', combineReduce('norm2', parts), 'f64').data[0]).toBe(5);
    expect(reduce(x, 'norm2', [0, 1]).data[0]! + reduce(x, 'norm2', [1, 2]).data[0]!).toBe(7);
  });
});
