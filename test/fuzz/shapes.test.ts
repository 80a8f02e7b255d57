// Tiny matrices of absurd shape (up to 2^31 - 1 rows or columns around a handful of entries, and
// the empty and one-vertex cases) through every function that takes a matrix: each must answer,
// or refuse with a typed error (a LimitError for what it would have to allocate), within the hang
// limit. A shape is cheap to state and expensive to honour: the per-row and per-column arrays
// behind it are what the budget has to catch.

import fc from 'fast-check';
import { describe } from 'vitest';
import { graphFeatures, matrixFeatures } from '../../src/cost/features.js';
import { dropSelfLoops, symmetrize, toCoo, transpose } from '../../src/data/convert.js';
import { CsrMatrix } from '../../src/data/csr.js';
import { DenseMatrix } from '../../src/data/dense.js';
import { formatMatrixMarket } from '../../src/io/write-matrix-market.js';
import { bfs } from '../../src/kernels/bfs.js';
import { msbfs } from '../../src/kernels/msbfs.js';
import { spmm } from '../../src/kernels/spmm.js';
import { rowLengthStats } from '../../src/webassembly/row-stats.js';
import { attempt, attemptAsync, fuzzAsync } from './harness.js';

const SIZES = [0, 1, 2, 5, 2 ** 16, 2 ** 20];
const WIDE = [...SIZES, 2 ** 28, 2 ** 30, 2 ** 31 - 1];

const shapeCase = fc.record({
  rows: fc.constantFrom(...SIZES),
  cols: fc.constantFrom(...WIDE),
  square: fc.boolean(),
  entries: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 6 }),
  fn: fc.constantFrom(
    'transpose',
    'symmetrize',
    'toCoo',
    'dropSelfLoops',
    'matrixFeatures',
    'graphFeatures',
    'rowLengthStats',
    'formatMatrixMarket',
    'spmm',
    'bfs',
    'msbfs',
  ),
  engine: fc.constantFrom('wasm', 'typescript'),
});

function build(rows: number, cols: number, entries: readonly (readonly [number, number])[]): CsrMatrix {
  const es = rows === 0 || cols === 0 ? [] : entries.map(([r, c]) => [r % rows, c % cols] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const rowPtr = new Int32Array(rows + 1);
  for (const [r] of es) rowPtr[r + 1]!++;
  for (let r = 0; r < rows; r++) rowPtr[r + 1]! += rowPtr[r]!;
  return new CsrMatrix({ rows, cols, rowPtr, colIdx: Int32Array.from(es, (e) => e[1]) });
}

describe('absurd shapes', () => {
  fuzzAsync('every matrix function on tiny matrices of huge or empty shape: an answer or a typed refusal', shapeCase, 150, async (c) => {
    const cols = c.square ? c.rows : c.cols;
    const a = build(c.rows, cols, c.entries);
    const engine = c.engine as 'wasm' | 'typescript';
    const sync: Record<string, () => unknown> = {
      transpose: () => transpose(a),
      symmetrize: () => symmetrize(a),
      toCoo: () => toCoo(a),
      dropSelfLoops: () => dropSelfLoops(a),
      matrixFeatures: () => matrixFeatures(a, { engine }),
      graphFeatures: () => graphFeatures(a, { engine }),
      rowLengthStats: () => rowLengthStats(a),
      formatMatrixMarket: () => formatMatrixMarket(a),
    };
    if (c.fn in sync) return attempt(c.fn, sync[c.fn]!).ok ? 'result' : 'refused';
    const got = await attemptAsync([c.fn, 'DenseMatrix.zeros', 'CsrMatrix'], async () => {
      if (c.fn === 'spmm') return spmm(a, DenseMatrix.zeros(a.cols, 2));
      if (c.fn === 'bfs') return bfs(a, 0);
      return msbfs(a, [0]);
    });
    return got.ok ? 'result' : 'refused';
  });
});
