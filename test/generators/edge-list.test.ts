import { describe, expect, it } from 'vitest';
import { cooToCsr } from '../../src/data/coo.js';
import { edgeListToCsr } from '../../src/generators/edge-list.js';
import { randomPermutation, Rng } from '../../src/generators/rng.js';

/** Random edges with some duplicates, self-loops and a few heavy rows (long buckets). */
function edges(n: number, m: number, seed: number): { src: Int32Array; dst: Int32Array } {
  const rng = new Rng(seed);
  const src = new Int32Array(m);
  const dst = new Int32Array(m);
  for (let e = 0; e < m; e++) {
    src[e] = e % 7 === 0 ? rng.nextInt(Math.min(n, 3)) : rng.nextInt(n);
    dst[e] = e % 11 === 0 ? src[e]! : rng.nextInt(n);
    if (e % 13 === 0 && e > 0) {
      src[e] = src[e - 1]!;
      dst[e] = dst[e - 1]!;
    }
  }
  return { src, dst };
}

/** Byte equality (vitest's deep equality is slow on arrays of millions of elements). */
function same(a: ArrayBufferView, b: ArrayBufferView): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

describe('edgeListToCsr', () => {
  // n covers one pass (n <= 2^11 keys), two and three radix passes, one and many buckets.
  for (const [n, m] of [
    [1, 5],
    [5, 40],
    [100, 3000],
    [3000, 40000],
    [70000, 200000],
    [2 ** 21 + 3, 50000],
  ] as const) {
    for (const directed of [false, true]) {
      it(`matches cooToCsr for n = ${n}, m = ${m}, ${directed ? 'directed' : 'undirected'}`, () => {
        const { src, dst } = edges(n, m, n + m);
        const expected = cooToCsr(
          { rows: n, cols: n, rowIdx: src, colIdx: dst },
          { mirror: directed ? 'none' : 'symmetric', dropSelfLoops: true, duplicates: 'first' },
        );
        const got = edgeListToCsr(n, src.slice(), dst.slice(), { directed });
        expect(got.nnz).toBe(expected.nnz);
        expect(same(got.rowPtr, expected.rowPtr)).toBe(true);
        expect(same(got.colIdx, expected.colIdx)).toBe(true);
        expect(got.symmetric).toBe(!directed);
        expect(got.sortedColumns).toBe(true);
      });
    }
  }

  it('relabels through perm and writes the new ids back into src and dst', () => {
    const n = 500;
    const { src, dst } = edges(n, 4000, 1);
    const perm = randomPermutation(new Rng(2), n);
    const rowIdx = src.map((v) => perm[v]!);
    const colIdx = dst.map((v) => perm[v]!);
    const expected = cooToCsr({ rows: n, cols: n, rowIdx, colIdx }, { mirror: 'symmetric', dropSelfLoops: true, duplicates: 'first' });
    const got = edgeListToCsr(n, src, dst, { directed: false, perm });
    expect(got.colIdx).toEqual(expected.colIdx);
    expect(got.rowPtr).toEqual(expected.rowPtr);
    expect(src).toEqual(rowIdx);
  });
});
