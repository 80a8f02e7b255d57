// Calibration and the accuracy check observe real hardware the way the executor meets it: each
// timed call after a pause longer than the pool's spin window (back-to-back timing made small CPU
// calls look 2-3x cheaper than a plan's pieces are), the median of the repeats after one untimed
// call; a simulator once.

import { describe, expect, it } from 'vitest';
import type { Device, DeviceResult } from '../../src/devices/device.js';
import { observeDevice, SETTLE_MS } from '../../src/cost/measure.js';

function fake(simulated: boolean, times: number[]): { device: Device; calls: number[]; run: () => Promise<DeviceResult> } {
  const calls: number[] = [];
  let i = 0;
  const run = async (): Promise<DeviceResult> => {
    calls.push(performance.now());
    const seconds = times[Math.min(i++, times.length - 1)]!;
    return {
      device: 'd',
      operator: 'bfs',
      output: {} as never,
      seconds,
      joules: 2 * seconds,
      source: simulated ? 'simulated' : 'measured',
      energySource: 'modelled',
      counters: {},
    };
  };
  return { device: { simulated } as Device, calls, run };
}

describe('observeDevice', () => {
  it('runs a simulator once', async () => {
    const f = fake(true, [3]);
    expect(await observeDevice(f.device, 7, f.run)).toEqual({ seconds: 3, joules: 6, source: 'simulated', spread: 1 });
    expect(f.calls.length).toBe(1);
  });

  it('times real hardware after a pause each time, untimed first call aside', async () => {
    const f = fake(false, [100, 5, 4, 9, 6, 5]);
    const o = await observeDevice(f.device, 5, f.run);
    expect(o.seconds).toBe(5);
    expect(o.joules).toBe(10);
    expect(o.spread).toBe(9 / 4);
    expect(f.calls.length).toBe(6);
    for (let k = 1; k < f.calls.length; k++) expect(f.calls[k]! - f.calls[k - 1]!).toBeGreaterThanOrEqual(SETTLE_MS - 1);
  });
});
