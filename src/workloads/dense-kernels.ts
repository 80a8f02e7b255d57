// The dense operators of workload DAGs (GEMM, element-wise maps, SDDMM, column reductions) as
// plain TypeScript loops the scheduler runs on the host, each restricted to a range of output rows.

import { allocRowPtr, CsrMatrix, type ValueArray } from '../data/csr.js';
import { type DenseArray, DenseMatrix, denseElements, type Precision } from '../data/dense.js';
import type { RowRange } from '../devices/device.js';
import { describe, InvalidArgumentError } from '../errors.js';
import { checkRowRange } from '../kernels/row-range.js';
import { checkEnum, checkInt, checkNumber, MAX_INDEX } from '../validate.js';

// Conventions shared by every kernel below:
// - `range` is `[begin, end)` of output rows (default: all); the result holds those rows only,
//   computed exactly as the full call would compute them, so parts join bit for bit.
// - Sums and products are accumulated in double precision and rounded once into the output,
//   whose precision is the inputs' (f32 and f64 inputs are never mixed).
// - Outputs are not re-scanned for finiteness: an f32 result may overflow to +-Infinity, as IEEE
//   arithmetic does (sddmm excepted: a CsrMatrix must hold finite values).

function checkDense(fn: string, what: string, x: unknown): asserts x is DenseMatrix {
  if (!(x instanceof DenseMatrix)) {
    throw new InvalidArgumentError(`${fn}: ${what} must be a DenseMatrix, got ${describe(x)}`);
  }
}

function checkSamePrecision(fn: string, xName: string, x: DenseMatrix, yName: string, y: DenseMatrix): void {
  if (x.precision !== y.precision) {
    throw new InvalidArgumentError(
      `${fn}: ${xName} is ${x.precision} but ${yName} is ${y.precision}; convert one so both have the same precision`,
    );
  }
}

function shape(m: { rows: number; cols: number }): string {
  return `${m.rows}x${m.cols}`;
}

function allocDense(fn: string, rows: number, cols: number, precision: Precision): DenseArray {
  const n = denseElements(fn, rows, cols);
  return precision === 'f32' ? new Float32Array(n) : new Float64Array(n);
}

/** Wrap a freshly computed buffer without the constructor's finiteness scan (see above). */
function wrap(rows: number, cols: number, data: DenseArray): DenseMatrix {
  return new DenseMatrix(rows, cols, data, { allowNonFinite: true });
}

/**
 * Dense matrix product `x[begin:end, :] * w` in i-k-j order: one row of `x` streams against the
 * rows of `w`, accumulating in a double-precision row buffer that is rounded once per output row.
 * Each output element sums its `f` products in order k = 0, 1, ..., so the result equals a naive
 * triple loop accumulating in double precision, bit for bit.
 *
 * @throws {InvalidArgumentError} when `x` or `w` is not a DenseMatrix, their precisions differ,
 *   `x.cols !== w.rows` (the message gives both shapes), or `range` is not within `[0, x.rows]`.
 * @example
 * const h = gemm(features, weights);            // n x f times f x h -> n x h
 * const part = gemm(features, weights, [0, 1024]); // rows 0..1023 only
 */
export function gemm(x: DenseMatrix, w: DenseMatrix, range?: RowRange): DenseMatrix {
  const fn = 'gemm';
  checkDense(fn, 'x', x);
  checkDense(fn, 'w', w);
  checkSamePrecision(fn, 'x', x, 'w', w);
  if (x.cols !== w.rows) {
    throw new InvalidArgumentError(`${fn}: x is ${shape(x)} and w is ${shape(w)}; x.cols must equal w.rows`);
  }
  const [begin, end] = checkRowRange(fn, range, x.rows);
  const f = x.cols;
  const h = w.cols;
  const out = allocDense(fn, end - begin, h, x.precision);
  // The loop below only ever sees Float64Arrays: V8 keeps one type feedback per function, and a
  // loop that has met both Float32Array and Float64Array runs about 1.5x slower. So f32 x is
  // widened a block of rows at a time into a small scratch (exact: every f32 is an f64), f32 w
  // once; only the final store, a typed-array set, rounds to the output precision.
  const wd = w.data instanceof Float64Array ? w.data : Float64Array.from(w.data);
  const a0 = new Float64Array(h);
  const a1 = new Float64Array(h);
  const xd = x.data;
  if (xd instanceof Float64Array) {
    gemmRows(xd, begin, end - begin, f, wd, h, a0, a1, out, 0);
  } else {
    const block = Math.max(2, Math.min(GEMM_BLOCK_ROWS, end - begin));
    const scratch = new Float64Array(block * f);
    for (let r = begin; r < end; r += block) {
      const rows = Math.min(block, end - r);
      scratch.set(xd.subarray(r * f, (r + rows) * f));
      gemmRows(scratch, 0, rows, f, wd, h, a0, a1, out, r - begin);
    }
  }
  return wrap(end - begin, h, out);
}

/** Rows of f32 x widened per block in gemm: 64 rows of 64 features is a 32 KiB scratch. */
const GEMM_BLOCK_ROWS = 64;

/**
 * `out[outFirst + i, :] = xd[first + i, :] * wd` for i in [0, count), `xd` f wide and `wd` f x h,
 * both row-major. Two rows of x share each load of w, and four rows of w are applied per pass
 * over the accumulators; each sum is still built in order k = 0, 1, ..., so no bit changes.
 */
function gemmRows(
  xd: Float64Array,
  first: number,
  count: number,
  f: number,
  wd: Float64Array,
  h: number,
  a0: Float64Array,
  a1: Float64Array,
  out: DenseArray,
  outFirst: number,
): void {
  const f4 = f - (f % 4);
  let i = 0;
  for (; i + 2 <= count; i += 2) {
    a0.fill(0);
    a1.fill(0);
    const r0 = (first + i) * f;
    const r1 = r0 + f;
    for (let k = 0; k < f4; k += 4) {
      const p0 = xd[r0 + k]!;
      const p1 = xd[r0 + k + 1]!;
      const p2 = xd[r0 + k + 2]!;
      const p3 = xd[r0 + k + 3]!;
      const q0 = xd[r1 + k]!;
      const q1 = xd[r1 + k + 1]!;
      const q2 = xd[r1 + k + 2]!;
      const q3 = xd[r1 + k + 3]!;
      const w0 = k * h;
      const w1 = w0 + h;
      const w2 = w1 + h;
      const w3 = w2 + h;
      for (let j = 0; j < h; j++) {
        const b0 = wd[w0 + j]!;
        const b1 = wd[w1 + j]!;
        const b2 = wd[w2 + j]!;
        const b3 = wd[w3 + j]!;
        a0[j] = a0[j]! + p0 * b0 + p1 * b1 + p2 * b2 + p3 * b3;
        a1[j] = a1[j]! + q0 * b0 + q1 * b1 + q2 * b2 + q3 * b3;
      }
    }
    for (let k = f4; k < f; k++) {
      const p = xd[r0 + k]!;
      const q = xd[r1 + k]!;
      const w0 = k * h;
      for (let j = 0; j < h; j++) {
        const b = wd[w0 + j]!;
        a0[j]! += p * b;
        a1[j]! += q * b;
      }
    }
    out.set(a0, (outFirst + i) * h);
    out.set(a1, (outFirst + i + 1) * h);
  }
  if (i < count) {
    a0.fill(0);
    const r0 = (first + i) * f;
    for (let k = 0; k < f; k++) {
      const p = xd[r0 + k]!;
      const w0 = k * h;
      for (let j = 0; j < h; j++) a0[j]! += p * wd[w0 + j]!;
    }
    out.set(a0, (outFirst + i) * h);
  }
}

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
  checkDense(fn, 'x', x);
  const [begin, end] = checkRowRange(fn, range, x.rows);
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
  checkDense(fn, 'x', x);
  checkNumber(fn, 'scale', scale);
  checkNumber(fn, 'shift', shift);
  const [begin, end] = checkRowRange(fn, range, x.rows);
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
  checkDense(fn, 'x', x);
  checkDense(fn, 'y', y);
  checkSamePrecision(fn, 'x', x, 'y', y);
  if (x.rows !== y.rows || x.cols !== y.cols) {
    throw new InvalidArgumentError(`${fn}: x is ${shape(x)} but y is ${shape(y)}; the shapes must match`);
  }
  const [begin, end] = checkRowRange(fn, range, x.rows);
  const cols = x.cols;
  const out = allocDense(fn, end - begin, cols, x.precision);
  const xd = x.data;
  const yd = y.data;
  const offset = begin * cols;
  for (let i = 0, n = out.length; i < n; i++) out[i] = xd[offset + i]! + yd[offset + i]!;
  return wrap(end - begin, cols, out);
}

/**
 * Sampled dense-dense product: for each stored entry (i, j) of `a` in rows `[begin, end)`, the
 * value `dot(u[i, :], v[j, :]) * a(i, j)` (times 1 for a pattern matrix). The result is the
 * `(end - begin) x a.cols` CsrMatrix of those rows, with `a`'s structure (duplicates and column
 * order kept), row pointers rebased to 0, and values in the precision of `u` and `v`.
 *
 * @throws {InvalidArgumentError} when `a` is not a CsrMatrix, `u` or `v` is not a DenseMatrix,
 *   the precisions of `u`, `v` and `a`'s values differ, `u` does not have `a.rows` rows, `v`
 *   does not have `a.cols` rows or their widths differ (the message gives all three shapes),
 *   `range` is not within `[0, a.rows]`, or a value overflows the precision.
 * @example
 * const scores = sddmm(adjacency, q, k); // attention logits on the edges of a graph
 */
export function sddmm(a: CsrMatrix, u: DenseMatrix, v: DenseMatrix, range?: RowRange): CsrMatrix {
  const fn = 'sddmm';
  checkCsr(fn, 'a', a);
  checkDense(fn, 'u', u);
  checkDense(fn, 'v', v);
  checkSamePrecision(fn, 'u', u, 'v', v);
  const precision = u.precision;
  const aValues = a.values;
  const aPrecision = aValues === undefined ? undefined : aValues instanceof Float32Array ? 'f32' : 'f64';
  if (aPrecision !== undefined && aPrecision !== precision) {
    throw new InvalidArgumentError(
      `${fn}: a's values are ${aPrecision} but u and v are ${precision}; convert one so all have the same precision`,
    );
  }
  if (u.rows !== a.rows || v.rows !== a.cols || u.cols !== v.cols) {
    throw new InvalidArgumentError(
      `${fn}: a is ${shape(a)}, u is ${shape(u)} and v is ${shape(v)}; u needs a.rows rows, v a.cols rows, both the same width`,
    );
  }
  const [begin, end] = checkRowRange(fn, range, a.rows);
  const k = u.cols;
  const first = a.rowStart(begin);
  const nnz = a.rowStart(end) - first;
  const rows = end - begin;
  const rowPtr = allocRowPtr(rows, nnz);
  const colIdx = a.colIdx.slice(first, first + nnz);
  const values: ValueArray = precision === 'f32' ? new Float32Array(nnz) : new Float64Array(nnz);
  const ud = u.data;
  const vd = v.data;
  let sorted = true;
  let p = 0;
  for (let r = 0; r < rows; r++) {
    const rowEnd = a.rowStart(begin + r + 1) - first;
    const uRow = (begin + r) * k;
    let last = -1;
    for (; p < rowEnd; p++) {
      const c = colIdx[p]!;
      if (c <= last) sorted = false;
      last = c;
      const vRow = c * k;
      let dot = 0;
      for (let t = 0; t < k; t++) dot += ud[uRow + t]! * vd[vRow + t]!;
      values[p] = aValues === undefined ? dot : dot * aValues[first + p]!;
      const stored = values[p]!;
      // An f32 result can overflow; a CsrMatrix must hold finite values.
      if (stored - stored !== 0) {
        throw new InvalidArgumentError(
          `${fn}: entry (${begin + r}, ${c}) = ${stored} is not finite in ${precision}; u and v are too large for it`,
        );
      }
    }
    if (rowPtr instanceof Int32Array) rowPtr[r + 1] = rowEnd;
    else rowPtr[r + 1] = BigInt(rowEnd);
  }
  return CsrMatrix.trusted({ rows, cols: a.cols, rowPtr, colIdx, values, sortedColumns: sorted });
}

/** A column-wise reduction. `'norm2'` is the Euclidean norm, `sqrt(sum of squares)`. */
export type ReduceOp = 'sum' | 'max' | 'norm2';
const REDUCE_OPS: readonly ReduceOp[] = ['sum', 'max', 'norm2'];

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
  checkDense(fn, 'x', x);
  checkEnum(fn, 'op', op, REDUCE_OPS);
  const [begin, end] = checkRowRange(fn, range, x.rows);
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
    throw new InvalidArgumentError(
      `${fn}: ${what} is a ${shape(m)} ${m.precision} matrix; accumulators from reducePartial are 1 x cols f64`,
    );
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
  checkDense(fn, 'x', x);
  checkEnum(fn, 'op', op, REDUCE_OPS);
  const [begin, end] = checkRowRange(fn, range, x.rows);
  if (op === 'max' && begin === end) {
    throw new InvalidArgumentError(`${fn}: 'max' over the empty row range [${begin}, ${end}) has no value`);
  }
  return finish(op, partial(fn, x, op, range), x.precision);
}

/** One row-range result: rows `[range[0], range[1])` of a larger matrix. */
export interface RowPart<M> {
  readonly range: RowRange;
  readonly matrix: M;
}

/**
 * Validate row-range parts of a `rows`-row matrix (ranges within `[0, rows]`, matrices of the
 * right kind with `end - begin` rows, no overlap, no gap) and return them ordered by first row,
 * empty ranges left out.
 */
function orderParts<M extends { readonly rows: number }>(
  fn: string,
  parts: readonly RowPart<M>[],
  rows: number,
  checkMatrix: (m: unknown, what: string) => asserts m is M,
): { begin: number; matrix: M }[] {
  checkInt(fn, 'rows', rows, 0, MAX_INDEX);
  if (!Array.isArray(parts) || parts.length === 0) {
    throw new InvalidArgumentError(`${fn}: parts must be a non-empty array of { range, matrix }, got ${describe(parts)}`);
  }
  const checked = parts.map((part: unknown, i) => {
    if (part === null || typeof part !== 'object') {
      throw new InvalidArgumentError(`${fn}: parts[${i}] must be { range, matrix }, got ${describe(part)}`);
    }
    const { range, matrix } = part as RowPart<unknown>;
    const [begin, end] = checkRowRange(`${fn}: parts[${i}].range`, range, rows);
    checkMatrix(matrix, `parts[${i}].matrix`);
    if (matrix.rows !== end - begin) {
      throw new InvalidArgumentError(
        `${fn}: parts[${i}].matrix has ${matrix.rows} rows but its range [${begin}, ${end}) has ${end - begin}`,
      );
    }
    return { begin, end, matrix, i };
  });
  const ordered = checked.filter((p) => p.end > p.begin).sort((x, y) => x.begin - y.begin);
  let cursor = 0;
  let previous = -1;
  for (const { begin, end, i } of ordered) {
    if (begin < cursor) {
      throw new InvalidArgumentError(`${fn}: parts[${i}] rows [${begin}, ${end}) overlap parts[${previous}], which ends at row ${cursor}`);
    }
    if (begin > cursor) throw new InvalidArgumentError(`${fn}: no part covers rows [${cursor}, ${begin})`);
    cursor = end;
    previous = i;
  }
  if (cursor !== rows) throw new InvalidArgumentError(`${fn}: no part covers rows [${cursor}, ${rows})`);
  return ordered;
}

/**
 * Join dense row-range results into the `rows x cols` matrix they partition. Parts may come in
 * any order; empty ranges are allowed. Each part's matrix must have `end - begin` rows and the
 * cols and precision of the others.
 *
 * @throws {InvalidArgumentError} when `parts` is empty, a range is not within `[0, rows]`, two
 *   ranges overlap, a row is left uncovered, or a part's matrix is not a DenseMatrix of the
 *   right shape and precision.
 * @example
 * concatRows([{ range: [0, 2], matrix: top }, { range: [2, 5], matrix: bottom }], 5);
 */
export function concatRows(parts: readonly RowPart<DenseMatrix>[], rows: number): DenseMatrix {
  const fn = 'concatRows';
  const ordered = orderParts(fn, parts, rows, (m, what) => checkDense(fn, what, m));
  const first = parts[0]!.matrix;
  const { cols, precision } = first;
  parts.forEach(({ matrix }, i) => {
    if (matrix.cols !== cols || matrix.precision !== precision) {
      throw new InvalidArgumentError(
        `${fn}: parts[${i}].matrix is ${shape(matrix)} ${matrix.precision} but parts[0].matrix has ${cols} ${precision} columns`,
      );
    }
  });
  const out = allocDense(fn, rows, cols, precision);
  for (const { begin, matrix } of ordered) out.set(matrix.data, begin * cols);
  return wrap(rows, cols, out);
}

function csrKind(m: CsrMatrix): 'pattern' | Precision {
  return m.values === undefined ? 'pattern' : m.values instanceof Float32Array ? 'f32' : 'f64';
}

function checkCsr(fn: string, what: string, m: unknown): asserts m is CsrMatrix {
  if (!(m instanceof CsrMatrix)) throw new InvalidArgumentError(`${fn}: ${what} must be a CsrMatrix, got ${describe(m)}`);
}

/**
 * Join CSR row-range results (from {@link sddmm}) into the `rows x cols` matrix they partition:
 * row pointers shifted, columns and values copied. Parts may come in any order; all must share
 * cols and be all pattern or all of one precision.
 *
 * @throws {InvalidArgumentError} as {@link concatRows}, for CsrMatrix parts.
 * @example
 * concatCsrRows([{ range: [0, 2], matrix: sddmm(a, u, v, [0, 2]) },
 *   { range: [2, a.rows], matrix: sddmm(a, u, v, [2, a.rows]) }], a.rows);
 */
export function concatCsrRows(parts: readonly RowPart<CsrMatrix>[], rows: number): CsrMatrix {
  const fn = 'concatCsrRows';
  const ordered = orderParts(fn, parts, rows, (m, what) => checkCsr(fn, what, m));
  const first = parts[0]!.matrix;
  const kind = csrKind(first);
  parts.forEach(({ matrix }, i) => {
    if (matrix.cols !== first.cols || csrKind(matrix) !== kind) {
      throw new InvalidArgumentError(
        `${fn}: parts[${i}].matrix is ${shape(matrix)} ${csrKind(matrix)} but parts[0].matrix has ${first.cols} ${kind} columns`,
      );
    }
  });
  let nnz = 0;
  for (const { matrix } of ordered) nnz += matrix.nnz;
  const rowPtr = allocRowPtr(rows, nnz);
  const colIdx = new Int32Array(nnz);
  const values = kind === 'pattern' ? undefined : kind === 'f32' ? new Float32Array(nnz) : new Float64Array(nnz);
  let base = 0;
  let sorted = true;
  for (const { begin, matrix } of ordered) {
    colIdx.set(matrix.colIdx, base);
    if (values !== undefined) values.set(matrix.values!, base);
    for (let r = 1; r <= matrix.rows; r++) {
      const end = base + matrix.rowStart(r);
      if (rowPtr instanceof Int32Array) rowPtr[begin + r] = end;
      else rowPtr[begin + r] = BigInt(end);
    }
    base += matrix.nnz;
    sorted &&= matrix.sortedColumns;
  }
  return CsrMatrix.trusted({ rows, cols: first.cols, rowPtr, colIdx, values, sortedColumns: sorted });
}
