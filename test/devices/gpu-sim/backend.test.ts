// The backend definition and the devices it builds: shipped profiles load and validate, every
// number carries a source, and the device describes itself from its spec.

import { expect, it } from 'vitest';
import { gpuSimBackend } from '../../../src/devices/backends/gpu-sim.js';
import { loadProfile, shippedProfiles } from '../../../src/devices/spec.js';

it('is a simulated GPU backend that is always available', async () => {
  expect(gpuSimBackend.name).toBe('gpu-sim');
  expect(gpuSimBackend.kind).toBe('gpu');
  expect(gpuSimBackend.simulated).toBe(true);
  expect(gpuSimBackend.hostMemory).toBe(false);
  expect(gpuSimBackend.defaultProfile).toBe('h100-sxm');
  expect((await gpuSimBackend.probe()).available).toBe(true);
});

it('ships h100-sxm, h200-sxm and a100-80gb, each parameter with a source', () => {
  expect(shippedProfiles('gpu-sim')).toEqual(['a100-80gb', 'h100-sxm', 'h200-sxm']);
  const h = loadProfile('test', 'gpu-sim', 'h100-sxm', gpuSimBackend.params);
  const a = loadProfile('test', 'gpu-sim', 'a100-80gb', gpuSimBackend.params);
  expect(h.params['sms']!.value).toBe(132);
  expect(h.params['dramGbs']!.value).toBe(3350);
  expect(h.params['tdpWatts']!.value).toBe(700);
  expect(a.params['sms']!.value).toBe(108);
  expect(a.params['tdpWatts']!.value).toBe(400);
  for (const spec of [h, a]) for (const p of Object.values(spec.params)) expect(p.source.length).toBeGreaterThan(10);
});

it('builds a device with capabilities and power from its spec', () => {
  const gpu = gpuSimBackend.create('gpu1', loadProfile('test', 'gpu-sim', 'a100-80gb', gpuSimBackend.params));
  expect(gpu.name).toBe('gpu1');
  expect(gpu.capabilities.operators).toEqual(['spmm', 'spmv', 'bfs', 'msbfs']);
  expect(gpu.capabilities.precisions).toEqual(['f32', 'f64']);
  expect(gpu.capabilities.memoryBytes).toBe(80e9);
  expect(gpu.capabilities.concurrency).toBe(1);
  expect(gpu.power).toEqual({ idleWatts: 50, activeWatts: 400, source: 'simulated' });
});
