// Column reductions (sum, max, norm2) in three steps so they split across devices: a partial
// accumulator per row range (the reference loop here; natively in src/kernels/dense.ts), their
// combination, and the finish.

import type { DenseMatrix, Precision } from '../../data/dense.js';
import type { RowRange } from '../../devices/device.js';
import { describe, InvalidArgumentError } from '../../errors.js';
import { allocDense, checkDense, checkReduce, REDUCE_OPS, type ReduceOp, shape, wrap } from '../../kernels/dense-checks.js';
import { checkEnum } from '../../validate.js';

export type { ReduceOp } from '../../kernels/dense-checks.js';

/**
 * The pre-finalisation accumulator of `reduce` over rows `[begin, end)`: a 1 x cols **f64**
 * matrix holding the column sums (`'sum'`), maxima (`'max'`) or sums of squares (`'norm2'`).
 * Partials of disjoint row ranges combine with {@link combineReduce} and finish with
 * {@link finishReduce}. They stay in double precision whatever the input's, so combining adds no
 * rounding to f32 and `norm2` never passes through a square root before the end (for f32 input
 * every square is exact). Over an empty range the accumulator is the operation's identity: 0,
 * or -Infinity for `'max'`.
 *
 * @throws {InvalidArgumentError} when `x` is not a DenseMatrix, `op` is not a ReduceOp, or
 *   `range` is not within `[0, x.rows]`.
 * @example
 * const parts = [[0, 500], [500, n]].map((r) => reducePartial(x, 'norm2', r));
 * finishReduce('norm2', combineReduce('norm2', parts), x.precision); // equals reduce(x, 'norm2')
 */
export function reducePartial(x: DenseMatrix, op: ReduceOp, range?: RowRange): DenseMatrix {
  return partial('reducePartial', x, op, range);
}

function partial(fn: string, x: DenseMatrix, op: ReduceOp, range: RowRange | undefined): DenseMatrix {
  const [begin, end] = checkReduce(fn, x, op, range);
  const cols = x.cols;
  const xd = x.data;
  const acc = new Float64Array(cols);
  if (op === 'max') {
    acc.fill(-Infinity);
    for (let i = begin; i < end; i++) {
      const row = i * cols;
      for (let j = 0; j < cols; j++) {
        const v = xd[row + j]!;
        if (v > acc[j]!) acc[j] = v;
      }
    }
  } else if (op === 'sum') {
    for (let i = begin; i < end; i++) {
      const row = i * cols;
      for (let j = 0; j < cols; j++) acc[j]! += xd[row + j]!;
    }
  } else {
    for (let i = begin; i < end; i++) {
      const row = i * cols;
      for (let j = 0; j < cols; j++) {
        const v = xd[row + j]!;
        acc[j]! += v * v;
      }
    }
  }
  return wrap(1, cols, acc);
}

/**
 * Combine the accumulators of disjoint row ranges (from {@link reducePartial}, or earlier
 * combinations) into one accumulator: element-wise sums for `'sum'` and `'norm2'`, maxima for
 * `'max'`, in the order given. The result is still an accumulator; pass it to
 * {@link finishReduce}. `'max'` combines exactly; sums add one rounding per part in double
 * precision (none at all while the partial sums are integers below 2^53).
 *
 * @throws {InvalidArgumentError} when `op` is not a ReduceOp, `parts` is not a non-empty array,
 *   or a part is not a 1 x cols f64 DenseMatrix with the first part's cols (an f32 part is a
 *   finished result, not an accumulator).
 * @example
 * combineReduce('sum', [reducePartial(x, 'sum', [0, 10]), reducePartial(x, 'sum', [10, 20])]);
 */
export function combineReduce(op: ReduceOp, parts: readonly DenseMatrix[]): DenseMatrix {
  const fn = 'combineReduce';
  checkEnum(fn, 'op', op, REDUCE_OPS);
  if (!Array.isArray(parts) || parts.length === 0) {
    throw new InvalidArgumentError(`${fn}: parts must be a non-empty array of accumulators, got ${describe(parts)}`);
  }
  let cols = 0;
  parts.forEach((m, i) => {
    checkAccumulator(fn, `parts[${i}]`, m);
    if (i === 0) cols = m.cols;
    else if (m.cols !== cols) {
      throw new InvalidArgumentError(`${fn}: parts[${i}] is ${shape(m)} but parts[0] is 1x${cols}; all parts must have the same shape`);
    }
  });
  const acc = Float64Array.from(parts[0]!.data);
  for (let i = 1; i < parts.length; i++) {
    const d = parts[i]!.data;
    if (op === 'max') {
      for (let j = 0; j < cols; j++) if (d[j]! > acc[j]!) acc[j] = d[j]!;
    } else {
      for (let j = 0; j < cols; j++) acc[j]! += d[j]!;
    }
  }
  return wrap(1, cols, acc);
}

/**
 * Turn an accumulator into the reduction's result in `precision` (the input's): the square root
 * for `'norm2'`, a rounding otherwise. A `'max'` accumulator of no rows at all holds -Infinity,
 * which passes through: it cannot be told apart from data (only `reduce` knows the range).
 *
 * @throws {InvalidArgumentError} when `op` is not a ReduceOp, `acc` is not a 1 x cols f64
 *   DenseMatrix, or `precision` is not 'f32' or 'f64'.
 * @example
 * finishReduce('norm2', combineReduce('norm2', parts), 'f32');
 */
export function finishReduce(op: ReduceOp, acc: DenseMatrix, precision: Precision): DenseMatrix {
  const fn = 'finishReduce';
  checkEnum(fn, 'op', op, REDUCE_OPS);
  checkAccumulator(fn, 'acc', acc);
  checkEnum(fn, 'precision', precision, ['f32', 'f64'] as const);
  return finish(op, acc, precision);
}

function finish(op: ReduceOp, acc: DenseMatrix, precision: Precision): DenseMatrix {
  const cols = acc.cols;
  const out = allocDense('finishReduce', 1, cols, precision);
  const a = acc.data;
  if (op === 'norm2') for (let j = 0; j < cols; j++) out[j] = Math.sqrt(a[j]!);
  else out.set(a);
  return wrap(1, cols, out);
}

function checkAccumulator(fn: string, what: string, m: unknown): asserts m is DenseMatrix {
  checkDense(fn, what, m);
  if (m.rows !== 1 || m.precision !== 'f64') {
    throw new InvalidArgumentError(`${fn}: ${what} is a ${shape(m)} ${m.precision} matrix; accumulators from reducePartial are 1 x cols f64`);
  }
}

/**
 * Column-wise `'sum'`, `'max'` or `'norm2'` over rows `[begin, end)` of `x`: a 1 x x.cols matrix
 * of `x`'s precision. Equal to `finishReduce(op, reducePartial(x, op, range), x.precision)`;
 * to split a reduction across devices, use those three functions.
 *
 * @throws {InvalidArgumentError} when `x` is not a DenseMatrix, `op` is not a ReduceOp, `range`
 *   is not within `[0, x.rows]`, or `op` is `'max'` over an empty range (it has no value).
 * @example
 * reduce(x, 'norm2'); // column norms
 */
export function reduce(x: DenseMatrix, op: ReduceOp, range?: RowRange): DenseMatrix {
  const fn = 'reduce';
  const [begin, end] = checkReduce(fn, x, op, range);
  if (op === 'max' && begin === end) {
    throw new InvalidArgumentError(`${fn}: 'max' over the empty row range [${begin}, ${end}) has no value`);
  }
  return finish(op, partial(fn, x, op, range), x.precision);
}
