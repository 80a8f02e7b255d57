// The speed drift calibration measures (cost/speed-drift.ts): how far the farthest of a real
// device's readings of one fixed kernel lies from their median over a calibration, stored per device in the payload and
// read by the cost model; simulators have none, and a stored figure that is not a plausible
// fraction is ignored.

import { describe, expect, it } from 'vitest';
import { calibrate } from '../../src/cost/calibrate.js';
import { CostModel } from '../../src/cost/model.js';
import { driftOf, MIN_SENTINEL_READINGS } from '../../src/cost/speed-drift.js';
import { buildSystem } from '../../src/devices/system.js';

describe('driftOf', () => {
  it('is the farthest reading from their median, as a fraction, either way', () => {
    // Median 100; the farthest is 150 (1.5x) here, and 50 (2x slower the other way) below.
    expect(driftOf([100, 100, 100, 100, 110, 120, 80, 150, 100])!).toBeCloseTo(0.5, 6);
    expect(driftOf([100, 100, 100, 100, 110, 120, 80, 150, 50, 100])!).toBeCloseTo(0.6, 6);
    expect(driftOf([100, 100, 100, 104, 97, 100])!).toBeCloseTo(0.04, 6);
  });

  it('says nothing from too few readings, and ignores readings that are not times', () => {
    expect(driftOf([100, 120, 90])).toBeUndefined();
    expect(MIN_SENTINEL_READINGS).toBe(4);
    expect(driftOf([100, 120, 90, Number.NaN, -1, 0])).toBeUndefined();
  });

  it('is bounded: steady readings give 2%, wild ones 60%', () => {
    expect(driftOf([100, 100, 100, 100, 100])).toBe(0.02);
    expect(driftOf([1, 100, 1000, 10, 5000, 3])).toBe(0.6);
  });
});

describe('speed drift in a calibration', () => {
  const system = buildSystem({
    name: 'cpu-cgra',
    devices: [
      { name: 'cpu', backend: 'cpu' },
      { name: 'cgra', backend: 'cgra-sim' },
    ],
  });

  it('is measured for the real CPU over the inputs, not for the simulator, and read by the model', async () => {
    const inputs = Array.from({ length: 4 }, (_, i) => ({ kind: 'erdos-renyi' as const, n: 256, m: 1024, seed: i + 1 }));
    const payload = await calibrate(system, { quick: true, inputs });
    const cpu = payload.devices.find((d) => d.backend === 'cpu')!;
    const cgra = payload.devices.find((d) => d.backend === 'cgra-sim')!;
    expect(cpu.speedDrift?.readings).toBe(4);
    expect(cpu.speedDrift!.drift).toBeGreaterThanOrEqual(0.02);
    expect(cpu.speedDrift!.drift).toBeLessThanOrEqual(0.6);
    expect(cgra.speedDrift).toBeUndefined();
    const model = new CostModel(system, payload);
    expect(model.speedDrift('cpu')).toBe(cpu.speedDrift!.drift);
    expect(model.speedDrift('cgra')).toBeUndefined();
    // A corrupted stored figure is not used.
    const bad = { ...payload, devices: payload.devices.map((d) => (d.backend === 'cpu' ? { ...d, speedDrift: { drift: 7, readings: 4 } } : d)) };
    expect(new CostModel(system, bad).speedDrift('cpu')).toBeUndefined();
  });
});
