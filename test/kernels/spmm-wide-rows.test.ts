// SpMM on a sparse, low-degree matrix whose X outgrows any core's L2, where each gathered X row
// is prefetched whole (native/src/kernels/spmm.cc): the same products as the reference, and an
// index corrupted after validation, even among the entries being prefetched ahead, is still
// reported instead of read.

import { describe, expect, it } from 'vitest';
import { spmm } from '../../src/kernels/spmm.js';
import { firstSpmmMismatch } from '../support/compare.js';
import { randomDense, skewedMatrix } from '../support/random.js';

// 20,000 x 16,384 with 3 entries a row: X is 8 MiB at FP32 k = 128 and FP64 k = 64.
const a = skewedMatrix(20_000, 16_384, 60_000, 17, 'f32');

describe('spmm with whole X rows prefetched', () => {
  for (const [precision, k] of [
    ['f32', 128],
    ['f64', 64],
    ['f64', 128],
  ] as const) {
    it(`matches the reference at ${precision} k = ${k}`, async () => {
      const x = randomDense(a.cols, k, precision, k);
      const y = await spmm(a, x);
      expect(firstSpmmMismatch(a, x.data, k, y.data)).toBe(-1);
    });
  }

  // FP64 at k = 128 is one 1024-byte strip in 512-bit vectors where the build has AVX-512, two
  // 512-byte strips elsewhere: both paths check the column before reading its row.
  for (const precision of ['f32', 'f64'] as const) {
    it(`reports an out-of-range column among the last entries, where the prefetch runs ahead of the reads (${precision} k = 128)`, async () => {
      const b = skewedMatrix(20_000, 16_384, 60_000, 17, 'f32');
      const x = randomDense(b.cols, 128, precision, 3);
      const at = b.nnz - 3;
      b.colIdx[at] = 1 << 30;
      await expect(spmm(b, x)).rejects.toThrow(new RegExp(`^spmm: colIdx\\[${at}\\] = 1073741824 is outside \\[0, 16384\\)`));
    });
  }
});
