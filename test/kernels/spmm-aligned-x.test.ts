// SpMM rows of 512 bytes (FP32 k = 128, FP64 k = 64) are accumulated in 512-bit vectors where X
// starts on a 64-byte boundary and in 256-bit ones where it does not (native/src/kernels/
// spmm_row.h): both paths give the reference's product, and both check every column index.

import { describe, expect, it } from 'vitest';
import { DENSE_ALIGN_BYTES } from '../../src/data/aligned.js';
import { DenseMatrix, type Precision } from '../../src/data/dense.js';
import { spmm } from '../../src/kernels/spmm.js';
import { nativeAddon } from '../../src/native/addon.js';
import { firstSpmmMismatch } from '../support/compare.js';
import { randomDense, skewedMatrix } from '../support/random.js';

/** `m`'s values in a new array whose data starts `phase` bytes past a 64-byte boundary. */
function placed(m: DenseMatrix, phase: number): DenseMatrix {
  const size = m.precision === 'f32' ? 4 : 8;
  const buffer = new ArrayBuffer(m.data.length * size + 2 * DENSE_ALIGN_BYTES);
  const at = nativeAddon().alignmentPad(buffer) + phase;
  const data = m.precision === 'f32' ? new Float32Array(buffer, at, m.data.length) : new Float64Array(buffer, at, m.data.length);
  data.set(m.data);
  return new DenseMatrix(m.rows, m.cols, data);
}

const a = skewedMatrix(3_000, 2_000, 30_000, 23, 'f64');

describe('spmm on X on and off a 64-byte boundary', () => {
  for (const [precision, k] of [
    ['f32', 128],
    ['f64', 64],
    ['f64', 128],
  ] as [Precision, number][]) {
    for (const phase of [0, 16, 8]) {
      it(`matches the reference at ${precision} k = ${k}, X ${phase} bytes past a boundary`, async () => {
        const x = placed(randomDense(a.cols, k, precision, k + phase), phase);
        const y = await spmm(a, x);
        expect(firstSpmmMismatch(a, x.data, k, y.data)).toBe(-1);
      });
    }
    it(`reports an out-of-range column at ${precision} k = ${k} with X on a boundary`, async () => {
      const b = skewedMatrix(3_000, 2_000, 30_000, 29, 'f64');
      const at = b.nnz - 2;
      b.colIdx[at] = -5;
      const x = placed(randomDense(b.cols, k, precision, 5), 0);
      await expect(spmm(b, x)).rejects.toThrow(new RegExp(`^spmm: colIdx\\[${at}\\] = -5 is outside \\[0, 2000\\)`));
    });
  }
});
