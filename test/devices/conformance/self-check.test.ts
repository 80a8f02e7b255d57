// The conformance checks can fail: a device that corrupts one output element, drops a BFS level
// or mislabels its time source is caught.

import { describe, expect, it } from 'vitest';
import type { Device } from '../../../src/devices/device.js';
import { checkBfs, checkSpmm, conformanceDevices, family, features } from './harness.js';

const cpu = (await conformanceDevices()).find((d) => d.backend === 'cpu')!;

function tampered(device: Device, tamper: (out: unknown) => void, overrides: object = {}): Device {
  return new Proxy(device, {
    get(target, prop) {
      if (prop === 'run') {
        return async (...args: Parameters<Device['run']>) => {
          const r = await target.run(...args);
          tamper(r.output);
          return { ...r, ...overrides };
        };
      }
      return Reflect.get(target, prop) as unknown;
    },
  });
}

describe('conformance self-check', () => {
  const a = family('kronecker (power law, undirected)');

  it('catches one wrong SpMM element', async () => {
    const bad = tampered(cpu, (out) => {
      const d = (out as { data: Float32Array }).data;
      d[d.length >> 1]! += 1e-3;
    });
    await expect(checkSpmm(bad, a, features(a, 8, 'f32'))).rejects.toThrow(/first mismatch/);
  });

  it('catches one wrong BFS depth', async () => {
    const bad = tampered(cpu, (out) => {
      const d = (out as { depth: Int32Array }).depth;
      d[d.length - 1] = 99;
    });
    await expect(checkBfs(bad, a, [0])).rejects.toThrow(/depth differs/);
  });

  it('catches a simulated time labelled as measured', async () => {
    const bad = tampered(cpu, () => {}, { source: 'simulated' });
    await expect(checkSpmm(bad, a, features(a, 2, 'f64'))).rejects.toThrow();
  });
});
