// Small hand-built matrices for the feature tests.

import { CsrMatrix } from '../../src/data/csr.js';

/** CSR from per-row column lists. */
export function fromRows(rows: readonly (readonly number[])[], cols = rows.length, wide = false): CsrMatrix {
  const ptr: number[] = [0];
  const idx: number[] = [];
  for (const r of rows) {
    idx.push(...r);
    ptr.push(idx.length);
  }
  return new CsrMatrix({
    rows: rows.length,
    cols,
    rowPtr: wide ? BigInt64Array.from(ptr, BigInt) : Int32Array.from(ptr),
    colIdx: Int32Array.from(idx),
  });
}

/** The undirected path 0 - 1 - ... - (n - 1). */
export function pathGraph(n: number): CsrMatrix {
  return fromRows(Array.from({ length: n }, (_, v) => [v - 1, v + 1].filter((w) => w >= 0 && w < n)));
}

/** The undirected star with centre 0 and n - 1 leaves. */
export function starGraph(n: number): CsrMatrix {
  return fromRows(Array.from({ length: n }, (_, v) => (v === 0 ? Array.from({ length: n - 1 }, (_, i) => i + 1) : [0])));
}

/** Gini coefficient by its definition: mean absolute difference over twice the mean. */
export function giniByDefinition(xs: readonly number[]): number {
  const n = xs.length;
  const sum = xs.reduce((s, x) => s + x, 0);
  if (sum === 0) return 0;
  let diff = 0;
  for (const a of xs) for (const b of xs) diff += Math.abs(a - b);
  return diff / (2 * n * sum);
}
