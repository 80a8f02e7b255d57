// Native calls map their output's pages before timing (native/src/prefault.h). Provisioning must
// leave memory as it was: an output view that starts and ends inside a page keeps the bytes
// around it, a resumed search keeps the depths it holds, and results match the reference.

import { describe, expect, it } from 'vitest';
import { DenseMatrix } from '../../src/data/dense.js';
import { spmm } from '../../src/kernels/spmm.js';
import { bfs } from '../../src/kernels/bfs.js';
import { nativeRelu } from '../../src/kernels/dense.js';
import { bfsReference } from '../../src/kernels/reference.js';
import { firstSpmmMismatch } from '../support/compare.js';
import { randomDense, skewedMatrix } from '../support/random.js';
import { gridGraph } from '../../src/generators/index.js';

const SENTINEL = 12345.5;

/** A view of `n` floats starting 3 floats into a larger buffer whose other elements hold SENTINEL. */
function viewInSentinels(n: number): { all: Float32Array; view: Float32Array } {
  const all = new Float32Array(n + 3 + 1029).fill(SENTINEL);
  return { all, view: all.subarray(3, 3 + n) };
}

function untouchedOutside(all: Float32Array, n: number): boolean {
  for (let i = 0; i < all.length; i++) if ((i < 3 || i >= 3 + n) && all[i] !== SENTINEL) return false;
  return true;
}

describe('output provisioning', () => {
  it('an SpMM output view inside a larger buffer (well above the provisioning threshold) leaves its neighbours alone', async () => {
    const a = skewedMatrix(6000, 3000, 60_000, 5, 'f32');
    const k = 16;
    const x = randomDense(a.cols, k, 'f32', 3);
    const { all, view } = viewInSentinels((5000 - 700) * k);
    const out = new DenseMatrix(5000 - 700, k, view);
    await spmm(a, x, { rows: [700, 5000], out });
    expect(firstSpmmMismatch(a, x.data, k, out.data, 700, 5000)).toBe(-1);
    expect(untouchedOutside(all, view.length)).toBe(true);
  });

  it('a dense map into a fresh 4 MB output computes every element', async () => {
    const x = randomDense(65_536, 16, 'f32', 8);
    const { output } = await nativeRelu(x);
    for (let i = 0; i < x.data.length; i++) {
      if (output.data[i] !== Math.max(0, x.data[i]!)) throw new Error(`relu element ${i}: ${output.data[i]} for ${x.data[i]}`);
    }
  });

  it('a resumed search keeps the depths its output already holds', async () => {
    const g = gridGraph({ rows: 200, cols: 200 });
    const first = await bfs(g, 0, { maxLevels: 5 });
    const level = first.depth.reduce((m, d) => Math.max(m, d), 0);
    // In place: the output is the array holding the search so far (160 KB, provisioned).
    const resumed = await bfs(g, 0, { resume: { depth: first.depth, level }, out: { depth: first.depth } });
    expect(Array.from(resumed.depth)).toEqual(Array.from(bfsReference(g, 0)));
  });
});
