// The one backend envelope (src/devices/backend-device.ts): every registered backend's devices go
// through it, so checks, labels and energy accounting cannot drift apart between backends; and
// the envelope itself labels energy by where it came from (the backend, a meter, the power model).

import { describe, expect, it } from 'vitest';
import { BackendDevice, type EnergyMeter, type Execution } from '../../../src/devices/backend-device.js';
import { BACKENDS } from '../../../src/devices/backends/index.js';
import type { DeviceCapabilities, DevicePower } from '../../../src/devices/device.js';
import { loadProfile } from '../../../src/devices/spec.js';
import type { DeviceTraits } from '../../../src/devices/traits.js';
import { InvalidArgumentError } from '../../../src/errors.js';
import { family, features } from './harness.js';

describe('every backend runs inside the envelope', () => {
  for (const b of BACKENDS.values()) {
    it(b.name, async () => {
      const d = b.create('d0', loadProfile('test', b.name, b.defaultProfile, b.params));
      expect(d).toBeInstanceOf(BackendDevice);
      expect([d.backend, d.kind, d.simulated, d.memorySpace === 'host']).toEqual([b.name, b.kind, b.simulated, b.hostMemory]);
      await d.dispose();
    });
  }
});

const someTraits = (): DeviceTraits => {
  const b = BACKENDS.get('cgra-sim')!;
  return b.create('t', loadProfile('test', b.name, b.defaultProfile, b.params)).traits;
};

/** A backend whose kernels return a fixed time, with or without its own energy figure. */
class Fake extends BackendDevice {
  readonly capabilities: DeviceCapabilities = {
    operators: ['spmm', 'spmv', 'bfs', 'msbfs'],
    precisions: ['f32'],
    memoryBytes: 1e9,
    concurrency: 1,
    bfsResume: false,
  };
  readonly power: DevicePower = { idleWatts: 1, activeWatts: 10, source: 'modelled' };
  readonly traits = someTraits();
  calls: string[] = [];
  constructor(
    private readonly energy: Execution['energy'],
    meter?: EnergyMeter,
  ) {
    super({ name: 'fake', kind: 'cpu', simulated: false, hostMemory: true }, 'f0', { name: 'fake', description: '', params: {} });
    this.meter = meter;
  }
  private result(kind: string): Promise<Execution> {
    this.calls.push(kind);
    return Promise.resolve({ output: { depths: new Int32Array(0) }, seconds: 0.5, counters: { n: 1 }, ...(this.energy ? { energy: this.energy } : {}) });
  }
  protected spmm(req: { kind: string }): Promise<Execution> {
    return this.result(req.kind);
  }
  protected bfs(): Promise<Execution> {
    return this.result('bfs');
  }
  protected msbfs(): Promise<Execution> {
    return this.result('msbfs');
  }
}

describe('the envelope', () => {
  const g = family('grid (road-like)');

  it('models energy from the active power when neither the backend nor a meter gives it', async () => {
    const r = await new Fake(undefined).run({ kind: 'bfs', source: 0 }, { graph: g });
    expect([r.device, r.operator, r.seconds, r.joules, r.source, r.energySource]).toEqual(['f0', 'bfs', 0.5, 5, 'measured', 'modelled']);
  });

  it('reads the meter around the call, and keeps a figure the backend gives', async () => {
    let reading = 100;
    const meter: EnergyMeter = { sample: () => [(reading += 3)], joulesBetween: (a, b) => b[0]! - a[0]! };
    expect((await new Fake(undefined, meter).run({ kind: 'msbfs', sources: Int32Array.of(0) }, { graph: g })).joules).toBe(3);
    const given = await new Fake({ joules: 7, source: 'simulated' }, meter).run({ kind: 'spmv' }, { a: g, x: features(g, 1, 'f32') });
    expect([given.operator, given.joules, given.energySource]).toEqual(['spmv', 7, 'simulated']);
  });

  it('checks the request before any kernel runs', async () => {
    const f = new Fake(undefined);
    await expect(f.run({ kind: 'bfs', source: -1 }, { graph: g })).rejects.toThrow(InvalidArgumentError);
    await expect(f.run({ kind: 'spmm' }, { a: g, x: features(g, 2, 'f64') })).rejects.toThrow(/f0\.run: device f0 does not support f64/);
    expect(f.calls).toEqual([]);
  });
});
