// SpMV on the CPU through the native addon: y = A * x (the k = 1 case of SpMM, kept as its own
// entry point because vectors are plain typed arrays, not matrices).

import { CsrMatrix } from '../data/csr.js';
import type { DenseArray } from '../data/dense.js';
import { describe, InvalidArgumentError } from '../errors.js';
import { nativeAddon } from '../native/addon.js';
import { inlineWork } from './inline.js';
import { checkOptions, overlaps } from '../validate.js';
import { callNative } from './native-call.js';
import { checkRowRange } from './row-range.js';

export interface SpmvOptions {
  /** Compute only output rows `[begin, end)`. @default [0, a.rows] */
  readonly rows?: readonly [number, number];
  /** Write the result here: length `end - begin`, the element type of `x`, not overlapping `x`. */
  readonly out?: DenseArray;
}

/**
 * Multiply a sparse matrix by a vector on the CPU's native kernels.
 *
 * @throws {InvalidArgumentError} when `x` is not a Float32Array/Float64Array of length `a.cols`,
 *   the row range or `out` does not fit, or the product is not finite (the native kernel checks
 *   each output row in registers and then names the first NaN or infinity in `x`).
 * @example
 * const y = await spmv(a, new Float64Array(a.cols).fill(1)); // row sums of a
 */
export async function spmv<T extends DenseArray>(a: CsrMatrix, x: T, options?: SpmvOptions): Promise<T> {
  return (await spmvTimed('spmv', a, x, options)).y;
}

/**
 * spmv that also reports the native compute time.
 * @internal
 */
export async function spmvTimed<T extends DenseArray>(fn: string, a: CsrMatrix, x: T, options?: SpmvOptions): Promise<{ y: T; seconds: number }> {
  const opts = checkOptions(fn, options, ['rows', 'out']);
  if (!(a instanceof CsrMatrix)) throw new InvalidArgumentError(`${fn}: a must be a CsrMatrix, got ${describe(a)}`);
  if (!(x instanceof Float32Array) && !(x instanceof Float64Array)) {
    throw new InvalidArgumentError(`${fn}: x must be a Float32Array or Float64Array, got ${describe(x)}`);
  }
  if (x.length !== a.cols) throw new InvalidArgumentError(`${fn}: x has length ${x.length} but a has ${a.cols} columns`);
  const [begin, end] = checkRowRange(fn, opts.rows, a.rows);
  let y: DenseArray;
  if (opts.out !== undefined) {
    y = opts.out;
    if (y === null || typeof y !== 'object' || y.constructor !== x.constructor || y.length !== end - begin) {
      throw new InvalidArgumentError(`${fn}: out must be a ${x.constructor.name} of length ${end - begin}, got ${describe(y)}`);
    }
    if (overlaps(y, x)) throw new InvalidArgumentError(`${fn}: out must not share memory with x`);
  } else {
    y = x instanceof Float32Array ? new Float32Array(end - begin) : new Float64Array(end - begin);
  }
  const addon = nativeAddon();
  const { seconds } = await callNative(fn, () =>
    addon.spmv(a.rows, a.cols, a.rowPtr, a.colIdx, a.values ?? null, x, 1, y, begin, end, inlineWork(a, begin, end, 1)),
  );
  return { y: y as T, seconds };
}
