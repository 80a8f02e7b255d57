// How the cost model observes a device, for calibration and for the accuracy check alike: the
// way the executor meets it. A piece of a plan is one call after other work, when the thread
// pool's workers have stopped spinning and the caches hold other data; timed back to back, a
// small CPU call looked 2-3x cheaper than that (cora BFS: 5.8 us hot, 17 us after 10 ms idle),
// and the model fitted to it under-predicted the executor's small CPU pieces by as much.

import type { Device, DeviceResult, TimeSource } from '../devices/device.js';
import { median } from '../stats.js';

/**
 * Pause before each timed call, in milliseconds: longer than the native pool's workers spin
 * waiting for the next job (2 ms, native/src/thread_pool.cc), so each call finds them asleep as
 * a plan's piece does, and long enough for other work to pass through the caches.
 */
export const SETTLE_MS = 5;

/** What one configuration cost on a device. */
export interface Observed {
  readonly seconds: number;
  readonly joules: number;
  readonly source: TimeSource;
  /** Slowest over fastest of the timed calls (1 for a simulator, which is deterministic). */
  readonly spread: number;
}

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

/**
 * Observe `run` on `device`: a simulator once (its figures are deterministic); real hardware as
 * the median of `repeats` calls, each after a pause (SETTLE_MS) and after one untimed call that
 * pays first-touch costs (page faults of fresh outputs, lazy initialisation) the executor's
 * steady state does not.
 * @example
 * const o = await observeDevice(cpu, 5, () => cpu.run({ kind: 'bfs', source: 0 }, { graph }));
 */
export async function observeDevice(device: Device, repeats: number, run: () => Promise<DeviceResult>): Promise<Observed> {
  if (device.simulated) {
    const r = await run();
    return { seconds: r.seconds, joules: r.joules, source: r.source, spread: 1 };
  }
  await run();
  const seconds: number[] = [];
  const joules: number[] = [];
  for (let i = 0; i < Math.max(1, repeats); i++) {
    await settle();
    const r = await run();
    seconds.push(r.seconds);
    joules.push(r.joules);
  }
  return { seconds: median(seconds), joules: median(joules), source: 'measured', spread: Math.max(...seconds) / Math.min(...seconds) };
}
