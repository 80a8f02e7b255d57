// Naive references for the workload kernels, written as plainly as possible (triple loops, one
// element at a time, double-precision accumulation rounded once into the output's precision).

import { CsrMatrix } from '../../src/data/csr.js';
import type { DenseMatrix, DenseArray, Precision } from '../../src/data/dense.js';
import { DypeError } from '../../src/errors.js';

export const PRECISIONS: readonly Precision[] = ['f32', 'f64'];

export function alloc(precision: Precision, n: number): DenseArray {
  return precision === 'f32' ? new Float32Array(n) : new Float64Array(n);
}

/** x[begin:end, :] * w by the textbook triple loop, summing over k in order in double precision. */
export function naiveGemm(x: DenseMatrix, w: DenseMatrix, begin = 0, end = x.rows): DenseArray {
  const out = alloc(x.precision, (end - begin) * w.cols);
  for (let i = begin; i < end; i++) {
    for (let j = 0; j < w.cols; j++) {
      let s = 0;
      for (let k = 0; k < x.cols; k++) s += x.get(i, k) * w.get(k, j);
      out[(i - begin) * w.cols + j] = s;
    }
  }
  return out;
}

/** Apply `f` to each element of rows [begin, end), rounding into x's precision. */
export function naiveMap(x: DenseMatrix, f: (v: number, i: number, j: number) => number, begin = 0, end = x.rows): DenseArray {
  const out = alloc(x.precision, (end - begin) * x.cols);
  for (let i = begin; i < end; i++) for (let j = 0; j < x.cols; j++) out[(i - begin) * x.cols + j] = f(x.get(i, j), i, j);
  return out;
}

/** Stored entries of rows [begin, end) as [row - begin, col, value] in storage order. */
export function entries(a: CsrMatrix, begin = 0, end = a.rows): Array<[number, number, number]> {
  const out: Array<[number, number, number]> = [];
  for (let i = begin; i < end; i++) {
    for (let p = a.rowStart(i); p < a.rowStart(i + 1); p++) out.push([i - begin, a.colIdx[p]!, a.values === undefined ? 1 : a.values[p]!]);
  }
  return out;
}

/** A dense row-major copy of a CSR matrix (duplicates summed, pattern entries 1). */
export function dense(a: CsrMatrix): number[][] {
  const out = Array.from({ length: a.rows }, () => new Array<number>(a.cols).fill(0));
  for (const [i, j, v] of entries(a)) out[i]![j]! += v;
  return out;
}

/** Build a CSR matrix from rows of [col, value] pairs (value omitted for a pattern matrix). */
export function csr(cols: number, rows: ReadonlyArray<ReadonlyArray<number | readonly [number, number]>>, precision?: Precision): CsrMatrix {
  const ptr = [0];
  const c: number[] = [];
  const v: number[] = [];
  for (const row of rows) {
    for (const e of row) {
      if (typeof e === 'number') {
        c.push(e);
        v.push(1);
      } else {
        c.push(e[0]);
        v.push(e[1]);
      }
    }
    ptr.push(c.length);
  }
  return new CsrMatrix({
    rows: rows.length,
    cols,
    rowPtr: Int32Array.from(ptr),
    colIdx: Int32Array.from(c),
    values: precision === undefined ? undefined : precision === 'f32' ? Float32Array.from(v) : Float64Array.from(v),
  });
}

/** Ranges every row-wise kernel is checked on: full, empty at both ends and inside, a middle slice. */
export function rangesOf(rows: number): Array<readonly [number, number]> {
  const mid = Math.floor(rows / 2);
  return [
    [0, rows],
    [0, 0],
    [rows, rows],
    [mid, mid],
    [Math.floor(rows / 3), Math.min(rows, Math.floor((2 * rows) / 3) + 1)],
    [Math.min(1, rows), rows],
  ];
}

/** Cut points splitting [0, rows) into uneven parts (odd sizes, one empty part). */
export function cutsOf(rows: number): number[] {
  return [0, Math.floor(rows / 5), Math.floor(rows / 5), Math.floor(rows / 2) + 1, rows];
}

/** Run `f` and return the DypeError it throws, failing the test if it throws nothing else. */
export function thrown(f: () => unknown): DypeError {
  try {
    f();
  } catch (e) {
    if (e instanceof DypeError) return e;
    throw e;
  }
  throw new Error('expected an error, none was thrown');
}
