// Pieces per device in the order they become ready. A real device runs one piece at a time. A
// simulated device's pieces may compute side by side on the host (up to `slots` at once): its
// timeline is composed afterwards from the simulated durations by the plan's list schedule, so
// when the host computed them changes nothing the run reports, only how long the user waits for
// the true results (four independent simulated SpMMs of a session batch ran one after another on
// a two-core host). A piece for a device with a free slot starts at once instead of behind a
// resolved promise (each await is a trip through the microtask queue, a visible share of a small
// operator's cost).

import type { Device } from '../devices/device.js';
import { hostUse } from '../devices/host-gate.js';
import { nativeAddon } from '../native/addon.js';

/**
 * How many of a device's pieces may compute at once: one per core the native kernels use for a
 * device whose host work shares the cores (a simulator: host-gate.ts), else one.
 */
export function hostSlots(device: Device): number {
  if (hostUse(device) !== 'shared') return 1;
  try {
    return Math.max(1, nativeAddon().threads());
  } catch {
    return 1; // no native addon: the simulators' own fallbacks run on the JS thread anyway
  }
}

export class DeviceQueues {
  private readonly tails = new Map<number, Promise<unknown>>();
  private readonly queued = new Map<number, number>();
  // Devices with more than one slot: pieces running, and the starts of those waiting, in order.
  private readonly running = new Map<number, number>();
  private readonly waiting = new Map<number, (() => void)[]>();

  /** Run `work` on device `d` once fewer than `slots` of its pieces run (1: after the pieces already queued there, whether they succeed or fail). */
  run<T>(d: number, work: () => Promise<T>, slots = 1): Promise<T> {
    if (slots > 1) return this.runSlotted(d, work, slots);
    const ahead = this.queued.get(d) ?? 0;
    this.queued.set(d, ahead + 1);
    const run = async (): Promise<T> => {
      try {
        return await work();
      } finally {
        this.queued.set(d, this.queued.get(d)! - 1);
      }
    };
    const next = ahead === 0 ? run() : this.tails.get(d)!.then(run, run);
    this.tails.set(d, next);
    return next;
  }

  private async runSlotted<T>(d: number, work: () => Promise<T>, slots: number): Promise<T> {
    const busy = this.running.get(d) ?? 0;
    if (busy < slots) this.running.set(d, busy + 1);
    else {
      let list = this.waiting.get(d);
      if (!list) this.waiting.set(d, (list = []));
      // The slot is handed over by the piece that ends (running stays counted).
      await new Promise<void>((start) => list.push(start));
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.get(d)?.shift();
      if (next) next();
      else this.running.set(d, this.running.get(d)! - 1);
    }
  }
}
