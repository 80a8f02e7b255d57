// SpMM on the CPU through the native addon: Y = A * X for CSR A and row-major dense X.

import { CsrMatrix } from '../data/csr.js';
import { DenseMatrix } from '../data/dense.js';
import { describe, InvalidArgumentError } from '../errors.js';
import { nativeAddon } from '../native/addon.js';
import { inlineWork } from './inline.js';
import { checkOptions, overlaps } from '../validate.js';
import { callNative } from './native-call.js';
import { takeOutput } from './output-pool.js';
import { checkRowRange } from './row-range.js';

export interface SpmmOptions {
  /** Compute only output rows `[begin, end)`. @default [0, a.rows] */
  readonly rows?: readonly [number, number];
  /**
   * Write the result here instead of allocating: `(end - begin) x x.cols`, the precision of `x`,
   * not overlapping `x`. Every element is overwritten.
   */
  readonly out?: DenseMatrix;
}

/**
 * Multiply a sparse matrix by a dense one on the CPU's native kernels: every core, work split by
 * nonzeros (merge path), the event loop left free. Pattern matrices count each entry as 1. The
 * result has the precision of `x`.
 *
 * @throws {InvalidArgumentError} when `a` is not a CsrMatrix, `x` is not a DenseMatrix with
 *   `a.cols` rows, the row range or `out` does not fit, or an option name is unknown; also when
 *   the arrays were corrupted after validation (the native side checks every index it reads).
 * @example
 * const y = await spmm(a, DenseMatrix.zeros(a.cols, 32));
 * y.rows === a.rows && y.cols === 32;
 */
export async function spmm(a: CsrMatrix, x: DenseMatrix, options?: SpmmOptions): Promise<DenseMatrix> {
  return (await spmmTimed('spmm', a, x, options)).y;
}

/**
 * spmm that also reports the native compute time (the CPU device's measured time).
 * @internal
 */
export async function spmmTimed(fn: string, a: CsrMatrix, x: DenseMatrix, options?: SpmmOptions): Promise<{ y: DenseMatrix; seconds: number }> {
  const opts = checkOptions(fn, options, ['rows', 'out']);
  if (!(a instanceof CsrMatrix)) throw new InvalidArgumentError(`${fn}: a must be a CsrMatrix, got ${describe(a)}`);
  if (!(x instanceof DenseMatrix)) throw new InvalidArgumentError(`${fn}: x must be a DenseMatrix, got ${describe(x)}`);
  if (x.rows !== a.cols) {
    throw new InvalidArgumentError(`${fn}: x has ${x.rows} rows but a has ${a.cols} columns (a is ${a.rows}x${a.cols})`);
  }
  const [begin, end] = checkRowRange(fn, opts.rows, a.rows);
  const k = x.cols;
  let y: DenseMatrix;
  if (opts.out !== undefined) {
    y = opts.out;
    if (!(y instanceof DenseMatrix)) throw new InvalidArgumentError(`${fn}: out must be a DenseMatrix, got ${describe(y)}`);
    if (y.rows !== end - begin || y.cols !== k || y.precision !== x.precision) {
      throw new InvalidArgumentError(`${fn}: out is ${y.rows}x${y.cols} ${y.precision}, expected ${end - begin}x${k} ${x.precision}`);
    }
    if (overlaps(y.data, x.data)) throw new InvalidArgumentError(`${fn}: out must not share memory with x`);
  } else {
    // Every element is overwritten, so a recycled buffer will do; no finiteness scan of it either
    // (4 ms for 4 MB here): the result is checked where it is computed.
    y = new DenseMatrix(end - begin, k, takeOutput(fn, end - begin, k, x.precision), { allowNonFinite: true });
  }
  const addon = nativeAddon();
  const { seconds } = await callNative(fn, () =>
    addon.spmm(a.rows, a.cols, a.rowPtr, a.colIdx, a.values ?? null, x.data, k, y.data, begin, end, inlineWork(a, begin, end, k)),
  );
  return { y, seconds };
}
