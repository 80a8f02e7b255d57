// Row-level work on CSR arrays that the METIS reader and the Matrix Market writer share: sorting
// each row's columns in place, finding repeated columns, and checking symmetry in O(nnz).

import { sortRow } from '../data/coo.js';
import type { RowPtrArray, ValueArray } from '../data/csr.js';

function at(rowPtr: RowPtrArray, r: number): number {
  const p = rowPtr[r]!;
  return typeof p === 'bigint' ? Number(p) : p;
}

/** Sort the columns of every row ascending, moving values along (stably, with cooToCsr's sortRow). */
export function sortRows(rowPtr: RowPtrArray, colIdx: Int32Array, values: ValueArray | undefined): void {
  const rows = rowPtr.length - 1;
  for (let r = 0; r < rows; r++) sortRow(colIdx, values, at(rowPtr, r), at(rowPtr, r + 1));
}

/** First (row, column) stored twice, in rows whose columns are sorted; undefined when none. */
export function findDuplicate(rowPtr: RowPtrArray, colIdx: Int32Array): { row: number; col: number } | undefined {
  const rows = rowPtr.length - 1;
  for (let r = 0; r < rows; r++) {
    const b = at(rowPtr, r + 1);
    for (let p = at(rowPtr, r) + 1; p < b; p++) {
      if (colIdx[p] === colIdx[p - 1]) return { row: r, col: colIdx[p]! };
    }
  }
  return undefined;
}

/**
 * Where a square matrix with sorted, duplicate-free rows differs from its transpose.
 * `row`/`col` is a stored entry whose mirror (col, row) is missing (`kind: 'missing'`) or holds
 * another value (`kind: 'value'`, `mirrorValue` set).
 */
export type Asymmetry =
  | { readonly kind: 'missing'; readonly row: number; readonly col: number }
  | { readonly kind: 'value'; readonly row: number; readonly col: number; readonly value: number; readonly mirrorValue: number };

/**
 * Check symmetry in O(nnz) time with one cursor per row: rows are visited in order, and the
 * entries of row j below the diagonal must be matched, in ascending order, by the rows i < j
 * that list j; a cursor that skips or stops short exposes a one-sided entry.
 */
export function findAsymmetry(rowPtr: RowPtrArray, colIdx: Int32Array, values: ValueArray | undefined): Asymmetry | undefined {
  const n = rowPtr.length - 1;
  const cursor = new Float64Array(n);
  for (let r = 0; r < n; r++) cursor[r] = at(rowPtr, r);
  for (let i = 0; i < n; i++) {
    const end = at(rowPtr, i + 1);
    let p = cursor[i]!;
    // Every entry of row i left of the diagonal should have been matched by an earlier row.
    if (p < end && colIdx[p]! < i) return { kind: 'missing', row: i, col: colIdx[p]! };
    if (p < end && colIdx[p] === i) p++;
    for (; p < end; p++) {
      const j = colIdx[p]!;
      const q = cursor[j]!;
      const k = q < at(rowPtr, j + 1) ? colIdx[q]! : n;
      if (k !== i) {
        // Row j either lacks i, or lists some k < i that row k does not mirror.
        return k < i ? { kind: 'missing', row: j, col: k } : { kind: 'missing', row: i, col: j };
      }
      if (values !== undefined && values[p] !== values[q]) {
        return { kind: 'value', row: i, col: j, value: values[p]!, mirrorValue: values[q]! };
      }
      cursor[j] = q + 1;
    }
  }
  return undefined;
}
