// The reference element-wise maps (relu, affine, add) over a range of rows, in TypeScript. The
// native kernels equal them bit for bit (test/devices/conformance/dense.test.ts).

import type { DenseMatrix } from '../../data/dense.js';
import type { RowRange } from '../../devices/device.js';
import { allocDense, checkAdd, checkAffine, checkRelu, wrap } from '../../kernels/dense-checks.js';

/**
 * `max(x, 0)` element-wise over rows `[begin, end)`. Negative values become +0; -0 and NaN (only
 * possible in a matrix built with `allowNonFinite`) pass through unchanged rather than being hidden.
 *
 * @throws {InvalidArgumentError} when `x` is not a DenseMatrix or `range` is not within `[0, x.rows]`.
 * @example
 * relu(gemm(x, w)); // a GCN layer's activation
 */
export function relu(x: DenseMatrix, range?: RowRange): DenseMatrix {
  const fn = 'relu';
  const [begin, end] = checkRelu(fn, x, range);
  const cols = x.cols;
  const out = allocDense(fn, end - begin, cols, x.precision);
  const xd = x.data;
  const offset = begin * cols;
  for (let i = 0, n = out.length; i < n; i++) {
    const v = xd[offset + i]!;
    out[i] = v < 0 ? 0 : v;
  }
  return wrap(end - begin, cols, out);
}

/**
 * `scale * x + shift` element-wise over rows `[begin, end)`, computed in double precision and
 * rounded once.
 *
 * @throws {InvalidArgumentError} when `x` is not a DenseMatrix, `scale` or `shift` is not a
 *   finite number, or `range` is not within `[0, x.rows]`.
 * @example
 * affine(x, 0.85, 0.15 / n); // a PageRank damping step
 */
export function affine(x: DenseMatrix, scale: number, shift: number, range?: RowRange): DenseMatrix {
  const fn = 'affine';
  const [begin, end] = checkAffine(fn, x, scale, shift, range);
  const cols = x.cols;
  const out = allocDense(fn, end - begin, cols, x.precision);
  const xd = x.data;
  const offset = begin * cols;
  for (let i = 0, n = out.length; i < n; i++) out[i] = scale * xd[offset + i]! + shift;
  return wrap(end - begin, cols, out);
}

/**
 * `x + y` element-wise over rows `[begin, end)`.
 *
 * @throws {InvalidArgumentError} when `x` or `y` is not a DenseMatrix, their shapes or precisions
 *   differ, or `range` is not within `[0, x.rows]`.
 * @example
 * add(h, residual);
 */
export function add(x: DenseMatrix, y: DenseMatrix, range?: RowRange): DenseMatrix {
  const fn = 'add';
  const [begin, end] = checkAdd(fn, x, y, range);
  const cols = x.cols;
  const out = allocDense(fn, end - begin, cols, x.precision);
  const xd = x.data;
  const yd = y.data;
  const offset = begin * cols;
  for (let i = 0, n = out.length; i < n; i++) out[i] = xd[offset + i]! + yd[offset + i]!;
  return wrap(end - begin, cols, out);
}
