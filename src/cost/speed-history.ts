// How far a real device's speed moves on this machine across moments, from readings kept between
// processes. Calibration measures the drift over its own run (speed-drift.ts), but a quick
// calibration lasts about 20 seconds and can fall inside one of a shared VM's phases: on the
// 2-vCPU development VMs it stated +-11% while a plan's probes and the execution of the same
// mapping seconds later landed 1.6x apart (GraphSAGE on citeseer, issue 20). So every
// `dype explore` times the speed sentinel on each real device before it plans and leaves the
// readings in the cache folder, and the drift it states beside the plan is the larger of the
// calibration's and that of the readings of the last week: a machine whose speed holds keeps a
// few per cent, one that moves shows it. The planner's drift rule still takes the calibration's.
//
// The file is advisory: unreadable or malformed, it is started afresh; a write that fails is
// skipped (two processes writing at once keep one's readings).

import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Device } from '../devices/device.js';
import type { System } from '../devices/system.js';
import { writeFileAtomic } from '../io/atomic-write.js';
import { calibrationDir } from './cache.js';
import { deviceKey } from './calibration.js';
import { machineFingerprint } from './machine-fingerprint.js';
import { driftOf, SpeedSentinel } from './speed-drift.js';

/** Readings older than this are dropped. */
export const SPEED_HISTORY_WINDOW_MS = 7 * 24 * 3600 * 1000;
/** At most this many readings are kept per device (the newest). */
export const SPEED_HISTORY_MAX = 512;

/** One reading: when (ms since the epoch) and the sentinel's seconds. */
export type SpeedReading = readonly [at: number, seconds: number];

export interface SpeedHistoryDrift {
  readonly drift: number;
  readonly readings: number;
  /** Seconds between the oldest and the newest reading counted. */
  readonly spanSeconds: number;
}

/** This machine's history file (the fingerprint in its name, as calibrations have). */
export function speedHistoryPath(): string {
  return join(calibrationDir(), `speed-history-${machineFingerprint().fingerprint}.json`);
}

type History = Record<string, SpeedReading[]>;

function isReading(r: unknown): r is SpeedReading {
  return Array.isArray(r) && r.length === 2 && Number.isFinite(r[0]) && Number.isFinite(r[1]) && (r[1] as number) > 0;
}

async function load(path: string): Promise<History> {
  try {
    const raw: unknown = JSON.parse(await readFile(path, 'utf8'));
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return {};
    const out: History = {};
    for (const [key, list] of Object.entries(raw)) if (Array.isArray(list)) out[key] = list.filter(isReading);
    return out;
  } catch {
    return {};
  }
}

/** The readings kept for `key` at `now`: within the window, the newest SPEED_HISTORY_MAX. */
function kept(list: readonly SpeedReading[], now: number): SpeedReading[] {
  return list.filter(([at]) => at <= now && now - at <= SPEED_HISTORY_WINDOW_MS).slice(-SPEED_HISTORY_MAX);
}

/** Add readings per device key to the history at `path` (default this machine's); returns the history as written. */
export async function recordSpeedReadings(
  readings: ReadonlyMap<string, readonly SpeedReading[]>,
  path = speedHistoryPath(),
  now = Date.now(),
): Promise<Readonly<Record<string, readonly SpeedReading[]>>> {
  if (readings.size === 0) return {};
  const history = await load(path);
  for (const [key, list] of readings) history[key] = kept([...(history[key] ?? []), ...list.filter(isReading)], now);
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await writeFileAtomic('recordSpeedReadings', path, `${JSON.stringify(history)}\n`, { mode: 0o600 });
  } catch {
    // Advisory: a cache folder that cannot be written loses the readings, not the run.
  }
  return history;
}

/** The drift of kept readings at `now`, or undefined with too few. */
function driftOfKept(list: readonly SpeedReading[], now: number): SpeedHistoryDrift | undefined {
  const recent = kept(list, now);
  const drift = driftOf(recent.map(([, s]) => s));
  if (drift === undefined) return undefined;
  return { drift, readings: recent.length, spanSeconds: (recent[recent.length - 1]![0] - recent[0]![0]) / 1e3 };
}

/** The drift of `device`'s kept readings at `now`, or undefined with too few. */
export async function speedHistoryDrift(device: Device | string, path = speedHistoryPath(), now = Date.now()): Promise<SpeedHistoryDrift | undefined> {
  const key = typeof device === 'string' ? device : deviceKey(device);
  return driftOfKept((await load(path))[key] ?? [], now);
}

/**
 * Time the sentinel `times` times on each real device of `system` now and keep the readings:
 * what `dype explore` does before it probes, so the history spans the moments plans are made.
 * A fraction of a millisecond per reading. Returns each real device's drift over the history
 * just written, by device name (those with enough readings), as `speedHistoryDrifts` would read it.
 */
export async function observeSpeed(system: System, times = 3, path = speedHistoryPath()): Promise<Map<string, SpeedHistoryDrift>> {
  const sentinel = new SpeedSentinel();
  const readings = new Map<string, SpeedReading[]>();
  for (const device of system.devices) {
    for (let i = 0; i < times; i++) await sentinel.sample(device);
    const list = sentinel.readingsOf(device.name);
    if (list.length > 0)
      readings.set(
        deviceKey(device),
        list.map((r) => [r.at, r.seconds] as const),
      );
  }
  const history = await recordSpeedReadings(readings, path);
  const now = Date.now();
  const out = new Map<string, SpeedHistoryDrift>();
  for (const device of system.devices) {
    const d = device.simulated ? undefined : driftOfKept(history[deviceKey(device)] ?? [], now);
    if (d) out.set(device.name, d);
  }
  return out;
}

/** The history's drift of each real device of `system`, by device name (those with enough readings). */
export async function speedHistoryDrifts(system: System, path = speedHistoryPath()): Promise<Map<string, SpeedHistoryDrift>> {
  const out = new Map<string, SpeedHistoryDrift>();
  for (const device of system.devices) {
    if (device.simulated) continue;
    const d = await speedHistoryDrift(device, path);
    if (d) out.set(device.name, d);
  }
  return out;
}
