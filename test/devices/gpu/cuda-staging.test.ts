// Copies through pinned staging chunks on a real GPU (skipped where there is none): results
// larger than one 8 MiB chunk, of sizes that do not divide into chunks, come back whole and
// equal to the reference, in FP32 and FP64, for SpMM and multi-source BFS.

import { describe, expect, it } from 'vitest';
import { DenseMatrix } from '../../../src/data/dense.js';
import { cudaProbe, gpuBackend } from '../../../src/devices/backends/gpu.js';
import { loadProfile } from '../../../src/devices/spec.js';
import { generate } from '../../../src/generators/index.js';
import { msbfsReference } from '../../../src/kernels/reference.js';
import { firstDifference, firstSpmmMismatch } from '../../support/compare.js';
import { sourcesOf } from '../conformance/harness.js';

const probe = cudaProbe();

describe.skipIf(!probe.available)('staged copies on a CUDA device', () => {
  const device = gpuBackend.create('gpu0', loadProfile('test', 'gpu', 'cuda', gpuBackend.params));
  // 20,011 rows (prime): the results below span several chunks and end part-way through one.
  const a = generate({ kind: 'banded', n: 20011, halfBandwidth: 6, seed: 9 });

  for (const [k, precision] of [
    [128, 'f32'],
    [67, 'f64'],
  ] as const) {
    it(`an SpMM result of ${((a.rows * k * (precision === 'f32' ? 4 : 8)) / 2 ** 20).toFixed(1)} MiB (k = ${k}, ${precision}) comes back whole`, async () => {
      const size = a.cols * k;
      const data = precision === 'f32' ? new Float32Array(size) : new Float64Array(size);
      for (let i = 0; i < size; i++) data[i] = ((i * 2654435761) % 1000) / 1000 - 0.5;
      const x = new DenseMatrix(a.cols, k, data);
      const r = await device.run({ kind: 'spmm' }, { a, x });
      expect(r.counters['d2hBytes']).toBeGreaterThanOrEqual(a.rows * k * data.BYTES_PER_ELEMENT);
      expect(firstSpmmMismatch(a, x.data, k, r.output.data, 0, a.rows)).toBe(-1);
      // The last element, in the last partial chunk, is the reference's too.
      expect(r.output.data[r.output.data.length - 1]).not.toBe(0);
    });
  }

  it('multi-source BFS depths of 200 sources (16 MB) come back whole', async () => {
    const sources = Int32Array.from(sourcesOf(a, 200));
    const r = await device.run({ kind: 'msbfs', sources }, { graph: a });
    expect(firstDifference(r.output.depths, msbfsReference(a, sources))).toBe(-1);
  });
});
