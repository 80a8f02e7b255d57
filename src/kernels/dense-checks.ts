// Argument checks of the dense operators, shared by the TypeScript reference
// (src/workloads/dense/) and the native kernels (dense.ts), so both refuse the same inputs with the
// same messages; and the small helpers both use to build their results.

import { newDenseArray } from '../data/aligned.js';
import { CsrMatrix } from '../data/csr.js';
import { type DenseArray, DenseMatrix, denseElements, type Precision } from '../data/dense.js';
import type { RowRange } from '../devices/device.js';
import { describe, InvalidArgumentError } from '../errors.js';
import { checkEnum, checkNumber } from '../validate.js';
import { checkRowRange } from './row-range.js';

export function checkDense(fn: string, what: string, x: unknown): asserts x is DenseMatrix {
  if (!(x instanceof DenseMatrix)) {
    throw new InvalidArgumentError(`${fn}: ${what} must be a DenseMatrix, got ${describe(x)}`);
  }
}

export function checkSamePrecision(fn: string, xName: string, x: DenseMatrix, yName: string, y: DenseMatrix): void {
  if (x.precision !== y.precision) {
    throw new InvalidArgumentError(`${fn}: ${xName} is ${x.precision} but ${yName} is ${y.precision}; convert one so both have the same precision`);
  }
}

export function shape(m: { rows: number; cols: number }): string {
  return `${m.rows}x${m.cols}`;
}

export function allocDense(fn: string, rows: number, cols: number, precision: Precision): DenseArray {
  const n = denseElements(fn, rows, cols);
  return newDenseArray(precision, n);
}

/**
 * Wrap a freshly computed buffer without the constructor's finiteness scan: dense results are not
 * re-scanned, so an f32 result may overflow to +-Infinity as IEEE arithmetic does.
 */
export function wrap(rows: number, cols: number, data: DenseArray): DenseMatrix {
  return new DenseMatrix(rows, cols, data, { allowNonFinite: true });
}

export function csrKind(m: CsrMatrix): 'pattern' | Precision {
  return m.values === undefined ? 'pattern' : m.values instanceof Float32Array ? 'f32' : 'f64';
}

export function checkCsr(fn: string, what: string, m: unknown): asserts m is CsrMatrix {
  if (!(m instanceof CsrMatrix)) throw new InvalidArgumentError(`${fn}: ${what} must be a CsrMatrix, got ${describe(m)}`);
}

/** A column-wise reduction. `'norm2'` is the Euclidean norm, `sqrt(sum of squares)`. */
export type ReduceOp = 'sum' | 'max' | 'norm2';
export const REDUCE_OPS: readonly ReduceOp[] = ['sum', 'max', 'norm2'];

/** gemm's operands: `x` rows `[begin, end)` times `w`. */
export function checkGemm(fn: string, x: unknown, w: unknown, range: RowRange | undefined): readonly [number, number] {
  checkDense(fn, 'x', x);
  checkDense(fn, 'w', w);
  checkSamePrecision(fn, 'x', x, 'w', w);
  if (x.cols !== w.rows) {
    throw new InvalidArgumentError(`${fn}: x is ${shape(x)} and w is ${shape(w)}; x.cols must equal w.rows`);
  }
  return checkRowRange(fn, range, x.rows);
}

/** relu's operand. */
export function checkRelu(fn: string, x: unknown, range: RowRange | undefined): readonly [number, number] {
  checkDense(fn, 'x', x);
  return checkRowRange(fn, range, x.rows);
}

/** affine's operand and finite coefficients. */
export function checkAffine(fn: string, x: unknown, scale: number, shift: number, range: RowRange | undefined): readonly [number, number] {
  checkDense(fn, 'x', x);
  checkNumber(fn, 'scale', scale);
  checkNumber(fn, 'shift', shift);
  return checkRowRange(fn, range, x.rows);
}

/** add's operands: the same shape and precision. */
export function checkAdd(fn: string, x: unknown, y: unknown, range: RowRange | undefined): readonly [number, number] {
  checkDense(fn, 'x', x);
  checkDense(fn, 'y', y);
  checkSamePrecision(fn, 'x', x, 'y', y);
  if (x.rows !== y.rows || x.cols !== y.cols) {
    throw new InvalidArgumentError(`${fn}: x is ${shape(x)} but y is ${shape(y)}; the shapes must match`);
  }
  return checkRowRange(fn, range, x.rows);
}

/** A reduction's operand and operation. */
export function checkReduce(fn: string, x: unknown, op: unknown, range: RowRange | undefined): readonly [number, number] {
  checkDense(fn, 'x', x);
  checkEnum(fn, 'op', op, REDUCE_OPS);
  return checkRowRange(fn, range, x.rows);
}

/** sddmm's operands: u a.rows x k, v a.cols x k, all of one precision. */
export function checkSddmm(fn: string, a: unknown, u: unknown, v: unknown, range: RowRange | undefined): readonly [number, number] {
  checkCsr(fn, 'a', a);
  checkDense(fn, 'u', u);
  checkDense(fn, 'v', v);
  checkSamePrecision(fn, 'u', u, 'v', v);
  const precision = u.precision;
  const aPrecision = csrKind(a);
  if (aPrecision !== 'pattern' && aPrecision !== precision) {
    throw new InvalidArgumentError(`${fn}: a's values are ${aPrecision} but u and v are ${precision}; convert one so all have the same precision`);
  }
  if (u.rows !== a.rows || v.rows !== a.cols || u.cols !== v.cols) {
    throw new InvalidArgumentError(`${fn}: a is ${shape(a)}, u is ${shape(u)} and v is ${shape(v)}; u needs a.rows rows, v a.cols rows, both the same width`);
  }
  return checkRowRange(fn, range, a.rows);
}
