// Dense references for the graph transforms, straight from their formulas, and structural checks.

import { expect } from 'vitest';
import type { CsrMatrix } from '../../src/data/csr.js';
import { dense, entries } from './helpers.js';

/** D^-1/2 (A + I) D^-1/2 on dense arrays; I is added where A stores no diagonal entry. */
export function denseGcn(a: CsrMatrix): number[][] {
  const m = dense(a);
  const stored = new Set(
    entries(a)
      .filter(([i, j]) => i === j)
      .map(([i]) => i),
  );
  for (let i = 0; i < a.rows; i++) if (!stored.has(i)) m[i]![i] = 1;
  const d = m.map((row) => row.reduce((s, v) => s + v, 0));
  return m.map((row, i) => row.map((v, j) => v / Math.sqrt(d[i]!) / Math.sqrt(d[j]!)));
}

/** D^-1 A on dense arrays (rows of zeros stay zero). */
export function denseMean(a: CsrMatrix): number[][] {
  return dense(a).map((row) => {
    const s = row.reduce((x, v) => x + v, 0);
    return row.map((v) => (v === 0 ? 0 : v / s));
  });
}

/** P[i][j] = (number of edges j -> i) / outdeg(j), from the pattern of A. */
export function densePagerank(a: CsrMatrix): number[][] {
  const n = a.rows;
  const p = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  const outdeg = new Array<number>(n).fill(0);
  for (const [j] of entries(a)) outdeg[j]!++;
  for (const [j, i] of entries(a)) p[i]![j]! += 1 / outdeg[j]!;
  return p;
}

/** Every row's columns strictly increasing. */
export function expectSortedRows(m: CsrMatrix): void {
  expect(m.sortedColumns).toBe(true);
  for (let i = 0; i < m.rows; i++) {
    for (let p = m.rowStart(i) + 1; p < m.rowStart(i + 1); p++) expect(m.colIdx[p]!).toBeGreaterThan(m.colIdx[p - 1]!);
  }
}

/** Dense arrays equal within a relative tolerance. */
export function expectClose(actual: number[][], expected: number[][], tolerance: number): void {
  expect(actual.length).toBe(expected.length);
  actual.forEach((row, i) =>
    row.forEach((v, j) => {
      const e = expected[i]![j]!;
      if (Math.abs(v - e) > tolerance * Math.max(1, Math.abs(e))) expect.fail(`(${i}, ${j}) = ${v}, expected ${e}`);
    }),
  );
}
