// Every backend states its rates and caches (Device.traits) from its own spec, for every shipped
// profile; the cost model asks for them instead of looking parameters up by name, and a spec
// that lacks one is refused by name when the device is built, never priced with a stand-in.

import { describe, expect, it } from 'vitest';
import { defaultCoefficients, termDevice } from '../../src/cost/defaults.js';
import { denseRates } from '../../src/cost/dense-cost.js';
import { BACKENDS } from '../../src/devices/backends/index.js';
import type { DeviceSpec } from '../../src/devices/device.js';
import { loadProfile, shippedProfiles } from '../../src/devices/spec.js';
import { InvalidArgumentError } from '../../src/errors.js';

const positive = (x: number): boolean => Number.isFinite(x) && x > 0;

describe('device traits', () => {
  for (const b of BACKENDS.values()) {
    for (const profile of shippedProfiles(b.name)) {
      it(`${b.name}/${profile} states finite positive rates and caches`, async () => {
        const device = b.create('d', loadProfile('test', b.name, profile, b.params));
        const t = device.traits;
        expect(positive(t.caches.near) && positive(t.caches.far), 'caches').toBe(true);
        expect(t.caches.source.length).toBeGreaterThan(10);
        expect(positive(t.dense.flopsPerSecond.f32) && positive(t.dense.flopsPerSecond.f64) && positive(t.dense.bytesPerSecond)).toBe(true);
        expect(t.sparse.busyWatts).toBeGreaterThan(0);
        for (const v of Object.values(t.sparse)) if (typeof v === 'number') expect(Number.isFinite(v) && v >= 0).toBe(true);
        // The cost model's readings are the traits themselves.
        expect(termDevice(device)).toEqual({ near: t.caches.near, far: t.caches.far, lanes: t.searchLanes });
        expect(denseRates(device)).toBe(t.dense);
        for (const c of Object.values(defaultCoefficients(device))) expect(c.time.every((x) => Number.isFinite(x) && x >= 0)).toBe(true);
        await device.dispose();
      });
    }
  }

  it('a spec without a parameter the traits need is refused by name, not priced with a default', () => {
    for (const [backend, key] of [
      ['gpu-sim', 'l2Gbs'],
      ['gpu-sim', 'l1KbPerSm'],
      ['cgra-sim', 'spmBytes'],
      ['cpu', 'streamGbsPerCore'],
      ['gpu', 'launchUs'],
    ] as const) {
      const b = BACKENDS.get(backend)!;
      const full = loadProfile('test', backend, b.defaultProfile, b.params);
      const { [key]: _gone, ...rest } = full.params;
      const spec: DeviceSpec = { ...full, params: rest };
      expect(() => b.create('d', spec), `${backend} without ${key}`).toThrow(InvalidArgumentError);
      expect(() => b.create('d', spec), `${backend} without ${key}`).toThrow(new RegExp(`lacks ${key}`));
    }
  });

  it('the cost model refuses something that is not a device with traits', () => {
    expect(() => defaultCoefficients({ name: 'x' } as never)).toThrow(/^defaultCoefficients: device must be a device of a System/);
    expect(() => denseRates(null as never)).toThrow(/^denseRates: /);
  });

  it('the cpu reads its caches from sysfs where Linux reports them', () => {
    const b = BACKENDS.get('cpu')!;
    const cpu = b.create('cpu', loadProfile('test', 'cpu', 'server-core', b.params));
    const sysfs = cpu.spec.params['l2KbPerCore']!.source.startsWith('read from');
    expect(cpu.traits.caches.source).toMatch(sysfs ? /from sysfs/ : /server-core profile/);
  });
});
