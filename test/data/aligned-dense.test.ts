// Dense arrays dype allocates start on a 64-byte boundary (src/data/aligned.ts): zero matrices,
// kernel outputs and generated features; tiny ones are plain arrays; contents start at zero.

import { describe, expect, it } from 'vitest';
import { newDenseArray } from '../../src/data/aligned.js';
import { DenseMatrix } from '../../src/data/dense.js';
import { denseFeatures } from '../../src/generators/index.js';
import { spmm } from '../../src/kernels/spmm.js';
import { nativeAddon } from '../../src/native/addon.js';
import { onLineBoundary } from '../support/aligned.js';
import { skewedMatrix } from '../support/random.js';

describe('dense arrays on a 64-byte boundary', () => {
  it('places each array of a page or more on the boundary, zeroed, at every length and precision', () => {
    for (const precision of ['f32', 'f64'] as const) {
      for (const n of [64, 1000, 1001, 4096, 100_003]) {
        const a = newDenseArray(precision, n);
        expect(a.length).toBe(n);
        expect(a instanceof (precision === 'f32' ? Float32Array : Float64Array)).toBe(true);
        expect(onLineBoundary(a)).toBe(true);
        expect(a.every((v) => v === 0)).toBe(true);
      }
    }
  });

  it('allocates tiny arrays as plain typed arrays', () => {
    const a = newDenseArray('f32', 8);
    expect(a.byteOffset).toBe(0);
    expect(a.buffer.byteLength).toBe(32);
  });

  it('aligns zero matrices, generated features and kernel outputs', async () => {
    expect(onLineBoundary(DenseMatrix.zeros(300, 32, 'f64').data)).toBe(true);
    expect(onLineBoundary(denseFeatures({ rows: 300, cols: 32, seed: 1, precision: 'f32' }).data)).toBe(true);
    const a = skewedMatrix(300, 200, 3000, 4, 'f32');
    const y = await spmm(a, denseFeatures({ rows: 200, cols: 32, seed: 2, precision: 'f32' }));
    expect(onLineBoundary(y.data)).toBe(true);
  });

  it('refuses a non-buffer in the addon with a clear error', () => {
    expect(() => nativeAddon().alignmentPad(new Float32Array(4) as never)).toThrow(/alignmentPad: expects an ArrayBuffer/);
  });
});
