// Without a CUDA device (or without CUDA built in) the gpu backend says why, refuses work with a
// typed error naming the device and the reason, and the detected system falls back to gpu-sim.

import { describe, expect, it } from 'vitest';
import { UnsupportedError } from '../../../src/errors.js';
import { cudaAddon, cudaProbe, gpuBackend } from '../../../src/devices/backends/gpu.js';
import { loadProfile } from '../../../src/devices/spec.js';
import { detectSystem } from '../../../src/devices/system.js';
import { callNative } from '../../../src/kernels/native-call.js';
import { family, features } from '../conformance/harness.js';

const probe = cudaProbe();

describe.skipIf(probe.available)('gpu backend with no CUDA device', () => {
  it('the probe gives the reason', async () => {
    const status = await gpuBackend.probe();
    expect(status.available).toBe(false);
    if (!status.available) expect(status.reason).toMatch(/^no CUDA device \(.+\)$/);
    // Built with CUDA: the runtime's own error (no driver, no device); built without: how it was built.
    expect(probe.reason).toMatch(probe.built ? /^cuda\w+: |no device/ : /built without CUDA/);
  });

  it('a run is refused with a typed error naming the device and the reason', async () => {
    const device = gpuBackend.create('gpu0', loadProfile('test', 'gpu', 'cuda', gpuBackend.params));
    const a = family('grid (road-like)');
    const err = await device.run({ kind: 'spmm' }, { a, x: features(a, 4, 'f32') }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UnsupportedError);
    expect((err as Error).message).toMatch(/^gpu0\.run: no CUDA device \(/);
  });

  it('bad requests are still refused first, as on every backend', async () => {
    const device = gpuBackend.create('gpu0', loadProfile('test', 'gpu', 'cuda', gpuBackend.params));
    await expect(device.run({ kind: 'bfs', source: -1 }, { graph: family('grid (road-like)') })).rejects.toThrow(/op.source/);
  });

  it('the native entry points reject with ERR_UNSUPPORTED, never crash', async () => {
    const a = family('grid (road-like)');
    const x = features(a, 2, 'f64');
    const err = await callNative('test', () =>
      cudaAddon().gpuSpmm(a.rows, a.cols, a.rowPtr, a.colIdx, null, x.data, 2, new Float64Array(a.rows * 2), 0, a.rows, 0),
    ).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UnsupportedError);
  });

  it('fetching kept results is refused the same way, and malformed buffers are named first', async () => {
    const device = gpuBackend.create('gpu0', loadProfile('test', 'gpu', 'cuda', gpuBackend.params));
    await expect(device.fetch!([new Float32Array(4)])).rejects.toThrow(UnsupportedError);
    await expect(device.fetch!([new Float32Array(4)])).rejects.toThrow(/^gpu0\.fetch: no CUDA device \(/);
    await expect(device.fetch!(['not a buffer'] as unknown as ArrayBufferView[])).rejects.toThrow(/^gpu0\.fetch: buffers must be an array of typed arrays/);
    // Nothing to fetch costs nothing, device or not.
    await expect(device.fetch!([])).resolves.toEqual({ seconds: 0, bytes: 0, source: 'measured' });
  });

  it('the detected system simulates its GPU with gpu-sim', async () => {
    const system = await detectSystem();
    expect(system.devices.find((d) => d.kind === 'gpu')?.backend).toBe('gpu-sim');
    // The simulated card's modelled link, not the one dype's copies to a real card take.
    expect(system.links.find((l) => l.between.includes('gpu'))?.profile).toBe('pcie-gen5-x16');
  });
});
