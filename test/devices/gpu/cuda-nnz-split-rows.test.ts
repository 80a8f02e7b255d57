// The CUDA nnz split clears only the output rows it adds to atomically (rows a chunk boundary
// cuts) and the empty rows; every other row is stored whole. On a real GPU (skipped where there
// is none), after a product that leaves the device's output memory full of nonzero values, a
// matrix of empty rows (at chunk starts, between chunks, at the end), rows cut by chunks of every
// size, and one long row must still give exactly the reference.

import { describe, expect, it } from 'vitest';
import { CsrMatrix } from '../../../src/data/csr.js';
import { cudaAddon, cudaProbe, SPMM_STRATEGIES } from '../../../src/devices/backends/gpu.js';
import { callNative } from '../../../src/kernels/native-call.js';
import { firstSpmmMismatch } from '../../support/compare.js';
import { features } from '../conformance/harness.js';

const available = cudaProbe().available;

/** Row r has lengths[r] entries (columns spread over n). */
function withRowLengths(n: number, lengths: readonly number[]): CsrMatrix {
  const rowPtr = new Int32Array(lengths.length + 1);
  const cols: number[] = [];
  lengths.forEach((len, r) => {
    const set = new Set<number>();
    for (let i = 0; set.size < Math.min(len, n); i++) set.add((r * 131 + i * 17) % n);
    cols.push(...[...set].sort((a, b) => a - b));
    rowPtr[r + 1] = cols.length;
  });
  return new CsrMatrix({ rows: lengths.length, cols: n, rowPtr, colIdx: Int32Array.from(cols) });
}

async function nnzSplit(a: CsrMatrix, k: number, precision: 'f32' | 'f64') {
  const x = features(a, k, precision);
  const y = precision === 'f32' ? new Float32Array(a.rows * k) : new Float64Array(a.rows * k);
  const call = k === 1 ? cudaAddon().gpuSpmv : cudaAddon().gpuSpmm;
  await callNative('test', () => call(a.rows, a.cols, a.rowPtr, a.colIdx, a.values ?? null, x.data, k, y, 0, a.rows, SPMM_STRATEGIES['nnz-split']));
  return { x, y };
}

describe.skipIf(!available)('CUDA nnz split on stale output memory', () => {
  it('empty rows and rows cut by chunks come out exact after a dense product', async () => {
    const n = 4000;
    // Lengths cycling through 0 (empty), 1-9 and 31-33 around chunk sizes, one row of 3,000, and
    // empty rows at the end, where no chunk reaches.
    const lengths = Array.from({ length: n }, (_, r) => (r === 1234 ? 3000 : r >= n - 40 ? 0 : [0, 0, 1, 3, 7, 8, 9, 31, 32, 33][r % 10]!));
    const sparse = withRowLengths(n, lengths);
    const dense = withRowLengths(
      n,
      Array.from({ length: n }, () => 24),
    );
    for (const [k, precision] of [
      [1, 'f32'],
      [8, 'f32'],
      [32, 'f32'],
      [128, 'f32'],
      [32, 'f64'],
    ] as const) {
      await nnzSplit(dense, k, precision);
      const { x, y } = await nnzSplit(sparse, k, precision);
      const bad = firstSpmmMismatch(sparse, x.data, k, y, 0, sparse.rows);
      expect(bad, `k=${k} ${precision}: first mismatch at ${bad}`).toBe(-1);
    }
  });
});
