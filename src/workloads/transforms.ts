// The graph preparations workloads apply to their input matrix before running (GCN normalisation,
// mean aggregation, the PageRank transition matrix), each an O(nnz) pass producing a new CsrMatrix.

import { type NumericRowPtr, toRowPtr, transpose, transposeArrays } from '../data/convert.js';
import { CsrMatrix, type ValueArray } from '../data/csr.js';
import type { Precision } from '../data/dense.js';
import { describe, InvalidArgumentError } from '../errors.js';
import { checkEnum, firstNonFinite, MAX_INDEX } from '../validate.js';

// What a CsrMatrix means here is what SpMM computes with it: a pattern matrix stores 1 at each
// entry, and duplicate entries add up. Every transform first reduces A to that matrix with
// strictly increasing columns (`merged`), so the results have sorted rows without duplicates.
// Like the rest of dype, results may share A's structure arrays (rowPtr, colIdx) when A's rows
// are already sorted; values are always fresh.

const PRECISIONS: readonly Precision[] = ['f32', 'f64'];

function checkInput(fn: string, a: unknown, precision: unknown, square: boolean): Precision {
  if (!(a instanceof CsrMatrix)) throw new InvalidArgumentError(`${fn}: a must be a CsrMatrix, got ${describe(a)}`);
  if (square && a.rows !== a.cols) {
    throw new InvalidArgumentError(`${fn}: a must be square (the adjacency matrix of a graph), got ${a.rows}x${a.cols}`);
  }
  return checkEnum(fn, 'precision', precision, PRECISIONS);
}

/** A's entries with columns strictly increasing in every row, duplicates summed, in f64. */
interface Merged {
  readonly rowPtr: NumericRowPtr;
  readonly colIdx: Int32Array;
  readonly values: Float64Array;
}

function numericRowPtr(a: CsrMatrix): NumericRowPtr {
  return a.rowPtr instanceof Int32Array ? a.rowPtr : Float64Array.from(a.rowPtr, Number);
}

function allocPtr(rows: number, nnz: number): NumericRowPtr {
  return nnz > MAX_INDEX ? new Float64Array(rows + 1) : new Int32Array(rows + 1);
}

function allocValues(precision: Precision, n: number): ValueArray {
  return precision === 'f32' ? new Float32Array(n) : new Float64Array(n);
}

/** A as a sorted, duplicate-free matrix; `pattern` counts every stored entry as 1 whatever its value. */
function merged(a: CsrMatrix, pattern: boolean): Merged {
  const ptr = numericRowPtr(a);
  const vals = pattern ? undefined : a.values;
  if (a.sortedColumns) {
    return { rowPtr: ptr, colIdx: a.colIdx, values: vals === undefined ? new Float64Array(a.nnz).fill(1) : Float64Array.from(vals) };
  }
  // Transposing twice sorts each row stably (two counting sorts); duplicates end up adjacent.
  const t = transposeArrays(a.rows, a.cols, ptr, a.colIdx, vals);
  const s = transposeArrays(a.cols, a.rows, t.rowPtr, t.colIdx, t.values);
  const outPtr = allocPtr(a.rows, s.colIdx.length);
  const outCols = new Int32Array(s.colIdx.length);
  const outVals = new Float64Array(s.colIdx.length);
  let w = 0;
  for (let i = 0; i < a.rows; i++) {
    const start = w;
    for (let p = s.rowPtr[i]!, end = s.rowPtr[i + 1]!; p < end; p++) {
      const c = s.colIdx[p]!;
      const v = s.values === undefined ? 1 : s.values[p]!;
      if (w > start && outCols[w - 1] === c) outVals[w - 1]! += v;
      else {
        outCols[w] = c;
        outVals[w] = v;
        w++;
      }
    }
    outPtr[i + 1] = w;
  }
  return { rowPtr: outPtr, colIdx: outCols.subarray(0, w), values: outVals.subarray(0, w) };
}

function build(fn: string, a: CsrMatrix, rows: number, cols: number, ptr: NumericRowPtr, colIdx: Int32Array, values: ValueArray): CsrMatrix {
  const bad = firstNonFinite(values);
  if (bad >= 0) {
    throw new InvalidArgumentError(`${fn}: entry ${bad} of the result is ${values[bad]}; a's values are too large or too small for it`);
  }
  return CsrMatrix.trusted({
    rows,
    cols,
    rowPtr: toRowPtr(ptr, colIdx.length),
    colIdx,
    values,
    symmetric: a.symmetric,
    sortedColumns: true,
  });
}

/**
 * The GCN propagation matrix `D^-1/2 (A + I) D^-1/2` (Kipf and Welling), with D the row sums of
 * `A + I`. Self-loops are added only where A has no diagonal entry; an existing diagonal entry
 * keeps its value rather than gaining 1 (as PyTorch Geometric's `add_remaining_self_loops`).
 * A pattern A counts each entry as 1; duplicates add up. Every row of the result is sorted by
 * column, and a symmetric A gives a result that is symmetric bit for bit
 * (`w_ij / sqrt(d_i) / sqrt(d_j)` is evaluated as `w_ij * (s_i * s_j)`).
 *
 * @throws {InvalidArgumentError} when `a` is not a square CsrMatrix, `precision` is not 'f32' or
 *   'f64', a row of `A + I` does not sum to a positive number (no real D^-1/2), or a value is
 *   not finite in `precision`.
 * @example
 * const ahat = gcnNormalise(adjacency);        // f32 values
 * const ahat64 = gcnNormalise(adjacency, 'f64');
 */
export function gcnNormalise(a: CsrMatrix, precision: Precision = 'f32'): CsrMatrix {
  const fn = 'gcnNormalise';
  const prec = checkInput(fn, a, precision, true);
  const n = a.rows;
  const m = merged(a, false);
  const scale = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    let sum = 0;
    let hasDiagonal = false;
    const end = m.rowPtr[i + 1]!;
    for (let p = m.rowPtr[i]!; p < end; p++) {
      sum += m.values[p]!;
      if (m.colIdx[p] === i) hasDiagonal = true;
    }
    if (!hasDiagonal) sum += 1;
    if (!(sum > 0)) {
      throw new InvalidArgumentError(`${fn}: row ${i} of A + I sums to ${sum}; D^-1/2 needs positive row sums`);
    }
    scale[i] = 1 / Math.sqrt(sum);
    total += end - m.rowPtr[i]! + (hasDiagonal ? 0 : 1);
  }
  const ptr = allocPtr(n, total);
  const colIdx = new Int32Array(total);
  const values = allocValues(prec, total);
  let w = 0;
  for (let i = 0; i < n; i++) {
    const si = scale[i]!;
    let pending = true; // the diagonal entry, until it is written or found in A
    for (let p = m.rowPtr[i]!, end = m.rowPtr[i + 1]!; p < end; p++) {
      const c = m.colIdx[p]!;
      if (pending && c >= i) {
        if (c > i) {
          colIdx[w] = i;
          values[w++] = si * si;
        }
        pending = false;
      }
      colIdx[w] = c;
      values[w++] = m.values[p]! * (si * scale[c]!);
    }
    if (pending) {
      colIdx[w] = i;
      values[w++] = si * si;
    }
    ptr[i + 1] = w;
  }
  return build(fn, a, n, n, ptr, colIdx, values);
}

/**
 * The mean aggregator `D^-1 A` (GraphSAGE): every row divided by its sum, so each non-empty row
 * sums to 1 (of a pattern A: 1 / degree at each neighbour). Empty rows stay empty. A need not be
 * square. A pattern A counts each entry as 1; duplicates add up; rows come out sorted by column.
 *
 * @throws {InvalidArgumentError} when `a` is not a CsrMatrix, `precision` is not 'f32' or 'f64',
 *   or a non-empty row's values sum to 0 (no D^-1).
 * @example
 * const mean = meanAggregator(adjacency); // spmm(mean, h) averages neighbour features
 */
export function meanAggregator(a: CsrMatrix, precision: Precision = 'f32'): CsrMatrix {
  const fn = 'meanAggregator';
  const prec = checkInput(fn, a, precision, false);
  const m = merged(a, false);
  const values = allocValues(prec, m.colIdx.length);
  for (let i = 0; i < a.rows; i++) {
    const begin = m.rowPtr[i]!;
    const end = m.rowPtr[i + 1]!;
    let sum = 0;
    for (let p = begin; p < end; p++) sum += m.values[p]!;
    if (end > begin && sum === 0) {
      throw new InvalidArgumentError(`${fn}: row ${i} has ${end - begin} entries whose values sum to 0; D^-1 needs non-zero row sums`);
    }
    for (let p = begin; p < end; p++) values[p] = m.values[p]! / sum;
  }
  return build(fn, a, a.rows, a.cols, m.rowPtr, m.colIdx, values);
}

/**
 * The PageRank transition matrix P of the directed graph whose edges are A's entries (row j
 * holds j's out-edges): `P[i][j] = 1 / outdeg(j)` for each edge j -> i, so `P * r` spreads each
 * vertex's rank evenly over its out-neighbours and every column of a vertex with out-edges sums
 * to 1. Values of A are ignored (it is read as a pattern; a duplicated edge counts twice, in
 * both the entry and the degree). Dangling vertices (out-degree 0) contribute nothing: their
 * columns are empty, so P leaks their rank. The caller redistributes it (the usual
 * `+ (1 - d) / n + d * danglingRank / n` step) if it wants a stochastic iteration. Rows of P are
 * sorted by column.
 *
 * @throws {InvalidArgumentError} when `a` is not a square CsrMatrix or `precision` is not 'f32'
 *   or 'f64'.
 * @example
 * const p = pagerankMatrix(graph);
 * // r <- affine(spmm(p, r), 0.85, 0.15 / n), plus the dangling vertices' share
 */
export function pagerankMatrix(a: CsrMatrix, precision: Precision = 'f32'): CsrMatrix {
  const fn = 'pagerankMatrix';
  const prec = checkInput(fn, a, precision, true);
  const n = a.rows;
  const m = merged(a, true);
  const values = allocValues(prec, m.colIdx.length);
  for (let j = 0; j < n; j++) {
    const begin = m.rowPtr[j]!;
    const end = m.rowPtr[j + 1]!;
    let outdeg = 0;
    for (let p = begin; p < end; p++) outdeg += m.values[p]!;
    for (let p = begin; p < end; p++) values[p] = m.values[p]! / outdeg;
  }
  const t = transposeArrays(n, n, m.rowPtr, m.colIdx, values);
  return build(fn, a, n, n, t.rowPtr, t.colIdx, t.values!);
}

/**
 * A^T with values of `precision` (a pattern A gets 1 at every entry). Duplicates stay, adjacent.
 *
 * @throws {InvalidArgumentError} when `a` is not a CsrMatrix or `precision` is not 'f32' or 'f64'.
 */
function transposeTo(a: CsrMatrix, precision: Precision = 'f32'): CsrMatrix {
  const fn = 'transpose';
  const prec = checkInput(fn, a, precision, false);
  const t = transpose(a);
  const values = allocValues(prec, t.nnz);
  if (t.values === undefined) values.fill(1);
  else values.set(t.values);
  return CsrMatrix.trusted({ rows: t.rows, cols: t.cols, rowPtr: t.rowPtr, colIdx: t.colIdx, values, symmetric: t.symmetric, sortedColumns: t.sortedColumns });
}

/** A graph preparation a workload can name: what it computes and how to apply it. */
export interface GraphTransform {
  /** One line for listings (`dype workloads`, error hints). */
  readonly description: string;
  /** The transformed matrix with values of `precision`. @throws {InvalidArgumentError} as the function named. */
  apply(a: CsrMatrix, precision: Precision): CsrMatrix;
}

/**
 * The graph transforms workload files name, by key: `'gcn-normalise'`, `'mean-aggregator'`,
 * `'pagerank-matrix'` and `'transpose'`.
 *
 * @example
 * const t = TRANSFORMS.get('gcn-normalise');
 * if (t) adjacency = t.apply(adjacency, 'f32');
 */
export const TRANSFORMS: ReadonlyMap<string, GraphTransform> = new Map<string, GraphTransform>([
  ['gcn-normalise', { description: 'D^-1/2 (A + I) D^-1/2, self-loops added where missing (GCN)', apply: gcnNormalise }],
  ['mean-aggregator', { description: 'D^-1 A, each non-empty row averaging its neighbours (GraphSAGE mean)', apply: meanAggregator }],
  ['pagerank-matrix', { description: 'column-stochastic transpose, P[i][j] = 1/outdeg(j) per edge j -> i (PageRank)', apply: pagerankMatrix }],
  ['transpose', { description: 'A^T, for operators that need in-edges', apply: transposeTo }],
]);
