// A matrix with very many columns and a handful of entries is tiny, but its transpose and its
// per-column feature tables are not: found by probing every data function with a 1 x (2^31 - 1)
// matrix, transpose ran for 77 s building 16 GB of row arrays and matrixFeatures leaked a
// RangeError ("Invalid typed array length"). Both now refuse with a LimitError before allocating.

import { expect, it } from 'vitest';
import { graphFeatures, matrixFeatures } from '../../src/cost/features.js';
import { transpose, toCoo, dropSelfLoops } from '../../src/data/convert.js';
import { CsrMatrix } from '../../src/data/csr.js';
import { LimitError } from '../../src/errors.js';
import { formatMatrixMarket } from '../../src/io/write-matrix-market.js';
import { rowLengthStats } from '../../src/webassembly/row-stats.js';

const wide = new CsrMatrix({ rows: 1, cols: 2 ** 31 - 1, rowPtr: Int32Array.of(0, 1), colIdx: Int32Array.of(2 ** 31 - 2) });

it('transpose and matrixFeatures refuse what they would have to allocate for it', () => {
  expect(() => transpose(wide)).toThrow(LimitError);
  expect(() => transpose(wide)).toThrow(/^transpose: the transpose of CsrMatrix\(1x2147483647, nnz=1, pattern\) needs 32\.0 GiB/);
  for (const engine of ['wasm', 'typescript'] as const) {
    expect(() => matrixFeatures(wide, { engine })).toThrow(LimitError);
    expect(() => matrixFeatures(wide, { engine })).toThrow(/^matrixFeatures: the per-column reuse table of CsrMatrix\(1x2147483647/);
  }
  expect(() => graphFeatures(wide)).toThrow(/^graphFeatures: g must be square/);
});

it('what needs only its entries still works on it', () => {
  expect(toCoo(wide).colIdx[0]).toBe(2 ** 31 - 2);
  expect(dropSelfLoops(wide).nnz).toBe(1);
  expect(rowLengthStats(wide).max).toBe(1);
  expect(formatMatrixMarket(wide)).toMatch(/^%%MatrixMarket matrix coordinate pattern general\n1 2147483647 1\n1 2147483647\n$/);
});
