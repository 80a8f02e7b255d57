// msbfs writes into a caller's array when given `out` (repeated searches skip the page faults of
// 64 fresh depth rows), fully overwritten, and refuses one of the wrong size or sharing memory
// with the graph, naming the function and the value.

import { describe, expect, it } from 'vitest';
import { CsrMatrix } from '../../src/data/csr.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { generate } from '../../src/generators/index.js';
import { msbfs } from '../../src/kernels/msbfs.js';
import { msbfsReference } from '../../src/kernels/reference.js';
import { firstDifference } from '../support/compare.js';

describe('msbfs out', () => {
  // A long grid: past 32 levels the searches run as single searches spread over the pool.
  const long = generate({ kind: 'grid', rows: 300, cols: 4, deleteFraction: 0, seed: 5 });
  const small = generate({ kind: 'kronecker', scale: 8, seed: 2 });

  for (const [name, g] of [
    ['long grid (single searches)', long],
    ['small-world graph (bit-parallel)', small],
  ] as const) {
    it(`${name}: fills the array given, over stale values, equal to the reference`, async () => {
      const sources = Int32Array.from({ length: 40 }, (_, i) => (i * 31) % g.rows);
      const out = new Int32Array(sources.length * g.rows).fill(12345);
      const r = await msbfs(g, sources, { out });
      expect(r.depths).toBe(out);
      expect(firstDifference(out, msbfsReference(g, sources))).toBe(-1);
    });
  }

  it('refuses an array of the wrong size or type', async () => {
    await expect(msbfs(long, [0, 1], { out: new Int32Array(long.rows) })).rejects.toThrow(InvalidArgumentError);
    await expect(msbfs(long, [0, 1], { out: new Int32Array(long.rows) })).rejects.toThrow(/^msbfs: out must be an Int32Array of 2 sources x 1200 vertices/);
    await expect(msbfs(long, [0], { out: new Float32Array(long.rows) as unknown as Int32Array })).rejects.toThrow(/msbfs: out must be an Int32Array/);
  });

  it("refuses an array that shares memory with the graph's", async () => {
    const buf = new Int32Array(long.nnz + long.rows);
    buf.set(long.colIdx);
    const g = new CsrMatrix({ rows: long.rows, cols: long.cols, rowPtr: long.rowPtr, colIdx: buf.subarray(0, long.nnz), symmetric: true });
    await expect(msbfs(g, [0], { out: buf.subarray(long.nnz - 10, long.nnz - 10 + long.rows) })).rejects.toThrow(/msbfs: out must not share memory/);
  });
});
