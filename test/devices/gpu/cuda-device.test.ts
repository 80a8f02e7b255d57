// The `gpu` backend as the scheduler sees it, on a real GPU (skipped where there is none):
// honest labels and counters, the detected system picking it, and operators run concurrently on
// their own streams returning the reference results.

import { describe, expect, it } from 'vitest';
import { cudaProbe, gpuBackend } from '../../../src/devices/backends/gpu.js';
import { loadProfile } from '../../../src/devices/spec.js';
import { detectSystem } from '../../../src/devices/system.js';
import { bfsReference, msbfsReference } from '../../../src/kernels/reference.js';
import { firstDifference, firstSpmmMismatch } from '../../support/compare.js';
import { family, features, sourcesOf } from '../conformance/harness.js';

const probe = cudaProbe();

describe.skipIf(!probe.available)('gpu backend on a CUDA device', () => {
  const device = gpuBackend.create('gpu0', loadProfile('test', 'gpu', 'cuda', gpuBackend.params));

  it('reports the device it found', () => {
    expect(probe.name.length).toBeGreaterThan(0);
    expect(probe.sms).toBeGreaterThan(0);
    expect(device.capabilities.memoryBytes).toBe(probe.totalBytes);
    expect(device.spec.params['sms']!.value).toBe(probe.sms);
    expect(device.power.source).toBe(probe.nvml ? 'measured' : 'modelled');
  });

  it('labels its costs: kernel time measured, copies as counters, energy measured only with NVML', async () => {
    const a = family('kronecker (power law, undirected)');
    const r = await device.run({ kind: 'spmm' }, { a, x: features(a, 32, 'f32') });
    expect(r.source).toBe('measured');
    expect(r.energySource).toBe(probe.nvml ? 'measured' : 'modelled');
    expect(r.seconds).toBeGreaterThan(0);
    expect(r.counters['h2dBytes']).toBeGreaterThan(a.nnz * 4);
    // The result, and the kernels' four-byte error word.
    expect(r.counters['d2hBytes']).toBeGreaterThanOrEqual(a.rows * 32 * 4);
    expect(r.counters['d2hBytes']).toBeLessThan(a.rows * 32 * 4 + 64);
    expect(r.counters['wallSeconds']).toBeGreaterThanOrEqual(r.seconds);
  });

  it('runs operators concurrently, each with the reference result', async () => {
    const a = family('kronecker (power law, undirected)');
    const g = family('grid (road-like)');
    const sources = Int32Array.from(sourcesOf(g, 70));
    const jobs = Array.from({ length: 12 }, async (_, i) => {
      if (i % 3 === 0) {
        const x = features(a, 8 + i, i % 2 ? 'f32' : 'f64');
        const r = await device.run({ kind: 'spmm' }, { a, x });
        return firstSpmmMismatch(a, x.data, x.cols, r.output.data, 0, a.rows);
      }
      if (i % 3 === 1) {
        const r = await device.run({ kind: 'bfs', source: i * 37 }, { graph: g });
        return firstDifference(r.output.depth, bfsReference(g, i * 37));
      }
      const r = await device.run({ kind: 'msbfs', sources }, { graph: g }, [i, 60]);
      return firstDifference(r.output.depths, msbfsReference(g, sources.subarray(i, 60)));
    });
    expect(await Promise.all(jobs)).toEqual(new Array(12).fill(-1));
  });

  it("is the GPU of the detected system, linked at what dype's copies take", async () => {
    const system = await detectSystem();
    expect(system.devices.find((d) => d.kind === 'gpu')?.backend).toBe('gpu');
    expect(system.links.find((l) => l.between.includes('gpu'))?.profile).toBe('cuda-staged');
  });
});
