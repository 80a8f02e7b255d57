// Small dense least-squares solvers for fitting cost-model coefficients: Lawson–Hanson
// non-negative least squares and its unconstrained counterpart, both by Householder QR.

import { describe, InvalidArgumentError, LimitError } from '../errors.js';
import { checkInt, checkOptions } from '../validate.js';

/**
 * Most columns (model terms) the solvers accept. They are meant for cost models of a handful of
 * terms (<= 16); the dense QR of every subproblem costs rows * cols^2, which stops being small
 * well before this bound.
 */
export const MAX_FIT_COLUMNS = 64;

/** Most rows (observations): a dense copy of the system is made per subproblem. */
export const MAX_FIT_ROWS = 1 << 22;

export interface NnlsOptions {
  /**
   * Most least-squares subproblems solved before giving up. Lawson–Hanson terminates in exact
   * arithmetic; the cap guards against rounding-induced cycling.
   * @default 30 * cols
   */
  readonly maxIterations?: number;
}

const NNLS_OPTION_KEYS = ['maxIterations'] as const;

const EPS = 2 ** -52;
/** Below this |R_jj| (columns are scaled to unit norm) a subproblem counts as rank deficient. */
const RANK_TOL = 1e-10;
/** Ridge used only for a rank-deficient subproblem: rows delta * I appended to the system. */
const RIDGE_DELTA = 1e-8;

/**
 * Non-negative least squares: the x >= 0 minimising ||A x - b||_2 (Lawson and Hanson, 1974,
 * chapter 23), for small systems.
 *
 * Numerical care: columns are scaled to unit 2-norm and b to unit norm first (non-negativity is
 * invariant under positive scaling), so the stopping tolerance 10 * eps * max(rows, cols) on the
 * dual vector A^T (b - A x) is dimensionless and timings in nanoseconds or in hours fit alike.
 * Each passive-set subproblem is solved by Householder QR of the passive columns, never the
 * normal equations (which would square the condition number). Only when QR finds the passive
 * columns numerically dependent (a diagonal of R below 1e-10) is the subproblem solved as the
 * ridge system [A_P; 1e-8 I] z = [b; 0], which is always full rank. A variable whose first trial
 * solve comes out non-positive (possible only through rounding) is set aside until x changes,
 * the safeguard of the original algorithm against cycling. All-zero columns get coefficient 0.
 *
 * @param a rows x cols, row-major.
 * @param b length rows.
 * @returns x, length cols, every element >= 0.
 * @throws {InvalidArgumentError} for bad sizes, lengths, or a NaN/Infinity in a or b.
 * @throws {LimitError} when the iteration cap is reached (the message says how many).
 * @example
 * // Fit t = c0 + c1 * nnz with c >= 0.
 * nnls(Float64Array.of(1, 10, 1, 20, 1, 40), 3, 2, Float64Array.of(12, 22, 42)); // ≈ [2, 1]
 */
export function nnls(a: Float64Array, rows: number, cols: number, b: Float64Array, options?: NnlsOptions): Float64Array {
  const fn = 'nnls';
  checkSystem(fn, a, rows, cols, b);
  const opts = checkOptions(fn, options, NNLS_OPTION_KEYS);
  const cap = opts.maxIterations === undefined ? 30 * cols : checkInt(fn, 'maxIterations', opts.maxIterations, 1);
  const sys = equilibrate(a, rows, cols, b);
  const x = new Float64Array(cols);
  if (sys.bNorm === 0) return x;
  const passive = new Uint8Array(cols);
  const setAside = new Uint8Array(cols);
  const tol = 10 * EPS * Math.max(rows, cols);
  const w = new Float64Array(cols);
  let iterations = 0;
  for (;;) {
    dual(sys.a, rows, cols, sys.b, x, w);
    let t = -1;
    for (let j = 0; j < cols; j++) {
      if (passive[j] || setAside[j] || sys.colNorm[j] === 0) continue;
      if (w[j]! > tol && (t < 0 || w[j]! > w[t]!)) t = j;
    }
    if (t < 0) break;
    passive[t] = 1;
    for (let first = true; ; first = false) {
      if (++iterations > cap) {
        throw new LimitError(
          `${fn}: no convergence after ${cap} least-squares subproblems (rows=${rows}, cols=${cols}); ` +
            'the system is probably badly conditioned, or raise maxIterations',
        );
      }
      const idx = indicesOf(passive);
      const z = solveColumns(sys.a, rows, idx, sys.b);
      if (first && z[idx.indexOf(t)]! <= 0) {
        // Rounding made t look profitable; the exact algorithm would never pick it here.
        passive[t] = 0;
        setAside[t] = 1;
        break;
      }
      let alpha = Infinity;
      let leaving = -1;
      for (let k = 0; k < idx.length; k++) {
        const j = idx[k]!;
        const zj = z[k]!;
        if (zj > 0) continue;
        const step = x[j]! / (x[j]! - zj);
        if (step < alpha) {
          alpha = step;
          leaving = j;
        }
      }
      if (leaving < 0) {
        x.fill(0);
        for (let k = 0; k < idx.length; k++) x[idx[k]!] = z[k]!;
        setAside.fill(0);
        break;
      }
      // Move towards z until the first passive variable hits zero; drop every one at zero.
      for (let k = 0; k < idx.length; k++) {
        const j = idx[k]!;
        x[j] = x[j]! + alpha * (z[k]! - x[j]!);
      }
      x[leaving] = 0;
      for (const j of idx) {
        if (x[j]! <= tol) {
          x[j] = 0;
          passive[j] = 0;
        }
      }
      setAside.fill(0);
    }
  }
  return unscale(x, sys);
}

/**
 * Ordinary least squares: the x minimising ||A x - b||_2, by Householder QR on unit-norm
 * columns (a tiny ridge, as in {@link nnls}, only when the columns are numerically dependent;
 * all-zero columns get coefficient 0).
 *
 * @param a rows x cols, row-major.
 * @throws {InvalidArgumentError} for bad sizes, lengths, or a NaN/Infinity in a or b.
 * @example
 * leastSquares(Float64Array.of(1, 0, 0, 1, 1, 1), 3, 2, Float64Array.of(1, 2, 3)); // ≈ [1, 2]
 */
export function leastSquares(a: Float64Array, rows: number, cols: number, b: Float64Array): Float64Array {
  checkSystem('leastSquares', a, rows, cols, b);
  const sys = equilibrate(a, rows, cols, b);
  const x = new Float64Array(cols);
  if (sys.bNorm === 0) return x;
  const idx: number[] = [];
  for (let j = 0; j < cols; j++) if (sys.colNorm[j] !== 0) idx.push(j);
  if (idx.length === 0) return x;
  const z = solveColumns(sys.a, rows, idx, sys.b);
  for (let k = 0; k < idx.length; k++) x[idx[k]!] = z[k]!;
  return unscale(x, sys);
}

/** Shared argument checks; `fn` names the public caller, `aName` and `bName` its arguments. */
export function checkSystem(fn: string, a: unknown, rows: unknown, cols: unknown, b: unknown, aName = 'a', bName = 'b'): void {
  checkInt(fn, 'rows', rows, 1, MAX_FIT_ROWS);
  checkInt(fn, 'cols', cols, 1, MAX_FIT_COLUMNS);
  const r = rows as number;
  const c = cols as number;
  if (!(a instanceof Float64Array)) throw new InvalidArgumentError(`${fn}: ${aName} must be a Float64Array, got ${describe(a)}`);
  if (!(b instanceof Float64Array)) throw new InvalidArgumentError(`${fn}: ${bName} must be a Float64Array, got ${describe(b)}`);
  if (a.length !== r * c) throw new InvalidArgumentError(`${fn}: ${aName} has ${a.length} elements, rows * cols = ${r * c}`);
  if (b.length !== r) throw new InvalidArgumentError(`${fn}: ${bName} has ${b.length} elements, rows = ${r}`);
  for (let i = 0; i < a.length; i++) {
    const v = a[i]!;
    if (v - v !== 0) throw new InvalidArgumentError(`${fn}: ${aName}[${Math.floor(i / c)}, ${i % c}] = ${v} is not finite`);
  }
  for (let i = 0; i < r; i++) {
    const v = b[i]!;
    if (v - v !== 0) throw new InvalidArgumentError(`${fn}: ${bName}[${i}] = ${v} is not finite`);
  }
}

interface ScaledSystem {
  /** Column-major copy with unit-norm columns (zero columns left zero). */
  readonly a: Float64Array;
  readonly b: Float64Array;
  readonly colNorm: Float64Array;
  readonly bNorm: number;
}

/** Copy to column-major (each Householder step walks one column) with unit-norm columns and b. */
function equilibrate(a: Float64Array, rows: number, cols: number, b: Float64Array): ScaledSystem {
  const out = new Float64Array(rows * cols);
  const colNorm = new Float64Array(cols);
  for (let j = 0; j < cols; j++) {
    const norm = norm2(a, j, cols, rows);
    colNorm[j] = norm;
    if (norm === 0) continue;
    for (let i = 0; i < rows; i++) out[j * rows + i] = a[i * cols + j]! / norm;
  }
  const bNorm = norm2(b, 0, 1, rows);
  const bs = new Float64Array(rows);
  if (bNorm > 0) for (let i = 0; i < rows; i++) bs[i] = b[i]! / bNorm;
  return { a: out, b: bs, colNorm, bNorm };
}

/** 2-norm of v[start], v[start + stride], ... (count elements), scaled against overflow. */
function norm2(v: Float64Array, start: number, stride: number, count: number): number {
  let scale = 0;
  for (let i = 0; i < count; i++) scale = Math.max(scale, Math.abs(v[start + i * stride]!));
  if (scale === 0) return 0;
  let sum = 0;
  for (let i = 0; i < count; i++) {
    const t = v[start + i * stride]! / scale;
    sum += t * t;
  }
  return scale * Math.sqrt(sum);
}

function unscale(x: Float64Array, sys: ScaledSystem): Float64Array {
  for (let j = 0; j < x.length; j++) x[j] = sys.colNorm[j] === 0 ? 0 : (x[j]! * sys.bNorm) / sys.colNorm[j]!;
  return x;
}

/** w = A^T (b - A x) on the column-major scaled system. */
function dual(a: Float64Array, rows: number, cols: number, b: Float64Array, x: Float64Array, w: Float64Array): void {
  const r = Float64Array.from(b);
  for (let j = 0; j < cols; j++) {
    const xj = x[j]!;
    if (xj === 0) continue;
    for (let i = 0; i < rows; i++) r[i] = r[i]! - a[j * rows + i]! * xj;
  }
  for (let j = 0; j < cols; j++) {
    let s = 0;
    for (let i = 0; i < rows; i++) s += a[j * rows + i]! * r[i]!;
    w[j] = s;
  }
}

function indicesOf(mask: Uint8Array): number[] {
  const idx: number[] = [];
  for (let j = 0; j < mask.length; j++) if (mask[j]) idx.push(j);
  return idx;
}

/** Least-squares solution on the columns `idx`; the ridge system only if they are dependent. */
function solveColumns(a: Float64Array, rows: number, idx: readonly number[], b: Float64Array): Float64Array {
  const k = idx.length;
  if (k <= rows) {
    const m = new Float64Array(rows * k);
    for (let c = 0; c < k; c++) m.set(a.subarray(idx[c]! * rows, idx[c]! * rows + rows), c * rows);
    const z = householderSolve(m, rows, k, Float64Array.from(b));
    if (z !== undefined) return z;
  }
  const mr = rows + k;
  const m = new Float64Array(mr * k);
  for (let c = 0; c < k; c++) {
    m.set(a.subarray(idx[c]! * rows, idx[c]! * rows + rows), c * mr);
    m[c * mr + rows + c] = RIDGE_DELTA;
  }
  const rhs = new Float64Array(mr);
  rhs.set(b);
  const z = householderSolve(m, mr, k, rhs);
  if (z === undefined) throw new Error('solveColumns: ridge system rank deficient (cannot happen)');
  return z;
}

/**
 * Solve min ||M z - rhs|| for column-major M (m x k, m >= k) in place by Householder QR and
 * back substitution; undefined when R has a diagonal below RANK_TOL (columns have unit norm, so
 * the test is relative).
 */
function householderSolve(mat: Float64Array, m: number, k: number, rhs: Float64Array): Float64Array | undefined {
  const diag = new Float64Array(k);
  for (let j = 0; j < k; j++) {
    const col = j * m;
    const norm = norm2(mat, col + j, 1, m - j);
    if (norm <= RANK_TOL) return undefined;
    const alpha = mat[col + j]! > 0 ? -norm : norm;
    // v = x - alpha e1, stored over the column; H = I - 2 v v^T / (v^T v), with v^T v = 2 norm (norm + |x0|).
    mat[col + j] = mat[col + j]! - alpha;
    const vtv = 2 * norm * (norm + Math.abs(mat[col + j]! + alpha));
    diag[j] = alpha;
    for (let c = j + 1; c < k; c++) {
      const other = c * m;
      let s = 0;
      for (let i = j; i < m; i++) s += mat[col + i]! * mat[other + i]!;
      const f = (2 * s) / vtv;
      for (let i = j; i < m; i++) mat[other + i] = mat[other + i]! - f * mat[col + i]!;
    }
    let s = 0;
    for (let i = j; i < m; i++) s += mat[col + i]! * rhs[i]!;
    const f = (2 * s) / vtv;
    for (let i = j; i < m; i++) rhs[i] = rhs[i]! - f * mat[col + i]!;
  }
  const z = new Float64Array(k);
  for (let j = k - 1; j >= 0; j--) {
    let s = rhs[j]!;
    for (let c = j + 1; c < k; c++) s -= mat[c * m + j]! * z[c]!;
    z[j] = s / diag[j]!;
  }
  return z;
}
