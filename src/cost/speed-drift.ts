// How far a real device's speed moves between moments on this machine, measured during
// calibration. A plan prices a real device by probing it and runs it a moment later; on a shared
// VM the same CPU kernel runs 1.3-2.8x apart from one moment to the next, on a dedicated server
// a few per cent. The drift rule (scheduler/robust.ts) weighs each split against that movement;
// it assumes 25% and takes this machine's figure where that is smaller (scheduler/pick.ts).
//
// A fixed kernel (the sentinel) is timed on each real device after every calibration input, so
// its readings spread over the whole calibration. The drift is the farthest any reading lies from
// their median (max |log(t / median)|, as a fraction): a probe that falls in the machine's
// slowest moment is the case the rule is for, so the tail counts, not the typical spread (on the
// 2-vCPU VMs the 80th percentile said 5-15% while probes ran 1.3-1.7x off).

import type { Device } from '../devices/device.js';
import { denseFeatures, generate } from '../generators/index.js';
import { median } from '../stats.js';
import { observeDevice } from './measure.js';

/** Readings needed before a drift is stated (fewer say nothing either way). */
export const MIN_SENTINEL_READINGS = 4;
/** The stated drift's bounds: under 2% is timer noise, over 60% a machine to fix first. */
const MIN_DRIFT = 0.02;
const MAX_DRIFT = 0.6;

/** The drift a set of readings of one kernel shows, or undefined with too few. */
export function driftOf(readings: readonly number[]): number | undefined {
  const ok = readings.filter((t) => Number.isFinite(t) && t > 0);
  if (ok.length < MIN_SENTINEL_READINGS) return undefined;
  const m = median(ok);
  const farthest = Math.max(...ok.map((t) => Math.abs(Math.log(t / m))));
  return Math.min(MAX_DRIFT, Math.max(MIN_DRIFT, Math.exp(farthest) - 1));
}

/** The sentinel's readings per real device over a calibration. */
export class SpeedSentinel {
  private readonly graph = generate({ kind: 'kronecker', scale: 11, edgeFactor: 8, seed: 7 });
  private readonly x = denseFeatures({ rows: this.graph.cols, cols: 16, precision: 'f32', seed: 7 });
  private readonly readings = new Map<string, { readonly at: number; readonly seconds: number }[]>();

  /** Time the sentinel once on `device` (median of three calls; simulators are skipped: their speed does not move). */
  async sample(device: Device): Promise<void> {
    if (device.simulated || !device.capabilities.operators.includes('spmm')) return;
    const o = await observeDevice(device, 3, () => device.run({ kind: 'spmm' }, { a: this.graph, x: this.x }));
    const list = this.readings.get(device.name) ?? [];
    list.push({ at: Date.now(), seconds: o.seconds });
    this.readings.set(device.name, list);
  }

  /** `device`'s readings so far, with when each was taken (ms since the epoch). */
  readingsOf(device: string): readonly { readonly at: number; readonly seconds: number }[] {
    return this.readings.get(device) ?? [];
  }

  /** The drift of `device`'s readings, and how many there were. */
  drift(device: string): { readonly drift: number; readonly readings: number } | undefined {
    const list = (this.readings.get(device) ?? []).map((r) => r.seconds);
    const drift = driftOf(list);
    return drift === undefined ? undefined : { drift, readings: list.length };
  }
}
