// The SpMM bound's traffic per cache level (bench/kernels/spmm-bounds.ts): exact LRU misses of
// the X gathers on top of the compulsory bytes, per thread where the level is private.
import { describe, expect, it } from 'vitest';
import { boundSeconds, type CacheLevel, levelTraffic } from '../../bench/kernels/spmm-bounds.js';
import { CsrMatrix } from '../../src/data/csr.js';

/** A square pattern matrix whose rows gather the given columns, in order. */
function gathering(rows: readonly (readonly number[])[], cols: number): CsrMatrix {
  const rowPtr = new Int32Array(rows.length + 1);
  rows.forEach((r, i) => {
    rowPtr[i + 1] = rowPtr[i]! + r.length;
  });
  return new CsrMatrix({ rows: rows.length, cols, rowPtr, colIdx: Int32Array.from(rows.flat()) });
}

const compulsory = (a: CsrMatrix, k: number, eb: number): number => 4 * (a.rows + 1) + 4 * a.nnz + eb * a.nnz + eb * a.cols * k + eb * a.rows * k;
const level = (cacheBytes: number, privateToThread = false): CacheLevel => ({ source: 'test', cacheBytes, privateToThread });

describe('levelTraffic', () => {
  it('counts every gather a cyclic sweep loses in an LRU cache one row too small, none in one that fits', () => {
    const a = gathering(
      [
        [0, 1, 2, 3],
        [0, 1, 2, 3],
        [0, 1, 2, 3],
        [0, 1, 2, 3],
      ],
      4,
    );
    // FP32, k = 16: a row is one 64-byte line; 16 gathers, 4 first touches (compulsory), 12 misses.
    const t = levelTraffic(a, 16, 4, [level(3 * 64), level(4 * 64)], 1);
    expect(t.compulsory).toBe(compulsory(a, 16, 4));
    expect(t.bytes).toEqual([t.compulsory + 12 * 64, t.compulsory]);
  });

  it('takes rows that share a 64-byte line as one unit', () => {
    // FP32, k = 8: rows 0 and 1 are the two halves of one line, which a one-line cache holds.
    const a = gathering(
      [
        [0, 1],
        [1, 0],
        [0, 1],
      ],
      3,
    );
    const t = levelTraffic(a, 8, 4, [level(64)], 1);
    expect(t.bytes).toEqual([t.compulsory]);
    // Row 2 is on the next line: alternating 0 and 2 in a one-line cache misses each time after the first two.
    const b = gathering(
      [
        [0, 2],
        [0, 2],
        [0, 2],
      ],
      3,
    );
    expect(levelTraffic(b, 8, 4, [level(64)], 1).bytes[0]).toBe(compulsory(b, 8, 4) + 4 * 64);
  });

  it('simulates a private level per thread on its share of the rows, a shared one over all gathers', () => {
    const a = gathering(
      [
        [0, 1],
        [0, 1],
        [2, 3],
        [0, 1],
      ],
      4,
    );
    // Two threads: rows 0-1 and rows 2-3. Each thread's two-row cache holds what it gathers; one
    // shared two-row cache loses rows 0 and 1 to 2 and 3 and misses both at the end.
    const t = levelTraffic(a, 16, 4, [level(2 * 64, true), level(2 * 64, false)], 2);
    expect(t.bytes).toEqual([t.compulsory, t.compulsory + 2 * 64]);
  });

  it('brings a wide row whole: every line of a 512-byte row on each miss', () => {
    const a = gathering(
      [
        [0, 1],
        [0, 1],
      ],
      2,
    );
    // FP32, k = 128: 512-byte rows; a one-row cache misses rows 0 and 1 in the second row of A.
    const t = levelTraffic(a, 128, 4, [level(512)], 1);
    expect(t.bytes[0]).toBe(compulsory(a, 128, 4) + 2 * 512);
  });
});

describe('boundSeconds', () => {
  it('is the slowest level: its bytes at its bandwidth', () => {
    const traffic = { compulsory: 1e6, bytes: [4e6, 3e6, 1e6] };
    // 4 MB at 400 GB/s = 10 us, 3 MB at 100 GB/s = 30 us, 1 MB at 50 GB/s = 20 us.
    expect(boundSeconds(traffic, [400, 100, 50])).toBeCloseTo(30e-6, 12);
  });
});
