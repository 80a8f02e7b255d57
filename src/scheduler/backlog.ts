// A machine that is already busy: each device (and each direction of each link) may have work
// queued ahead of this workload, for so many seconds. The list schedule starts each device and
// link there instead of at 0, so a plan made against a backlog weighs a device's queue into its
// cost (a busy GPU is slower to reach than an idle CGRA), and the makespan counts from now, waits
// included. The shared service plans every job against the backlog of the jobs before it.

import { describe, InvalidArgumentError } from '../errors.js';
import type { System } from '../devices/system.js';
import { suggest } from '../validate.js';

/** Seconds of work queued ahead, by device name or link direction (`host->gpu`). */
export type Backlog = Readonly<Record<string, number>>;

/** The name of direction `dir` (0: as listed, 1: reversed) of link `l`. */
export function linkDirectionName(system: System, l: number, dir: 0 | 1): string {
  const [a, b] = system.links[l]!.between;
  return dir === 0 ? `${a}->${b}` : `${b}->${a}`;
}

/** Every name a backlog may use on `system`: its devices, then its link directions. */
export function backlogNames(system: System): string[] {
  const names = system.devices.map((d) => d.name);
  system.links.forEach((_, l) => names.push(linkDirectionName(system, l, 0), linkDirectionName(system, l, 1)));
  return names;
}

/**
 * `value` checked as a backlog for `system`: a map of device names and link directions to
 * finite seconds >= 0; zero entries are dropped.
 * @throws {InvalidArgumentError} naming `fn` and the bad key or value.
 */
export function checkBacklog(fn: string, value: unknown, system: System): Backlog {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidArgumentError(`${fn}: backlog must be a map of device names (or link directions such as "host->gpu") to seconds, got ${describe(value)}`);
  }
  const names = backlogNames(system);
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(value)) {
    if (!names.includes(k)) {
      const hint = suggest(k, names);
      throw new InvalidArgumentError(
        `${fn}: backlog names ${JSON.stringify(k)}, which is no device or link direction of system ${system.name}` +
          (hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ` (known: ${names.join(', ')})`),
      );
    }
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1e9) {
      throw new InvalidArgumentError(`${fn}: backlog.${k} must be seconds in [0, 1e9], got ${describe(v)}`);
    }
    if (v > 0) out[k] = v;
  }
  return out;
}

/** The backlog as start times: one per device (system order) and one per link direction (2l, 2l + 1). */
export function backlogStarts(system: System, backlog: Backlog | undefined): { devices: Float64Array; links: Float64Array } {
  const devices = new Float64Array(system.devices.length);
  const links = new Float64Array(2 * system.links.length);
  if (backlog) {
    system.devices.forEach((d, i) => (devices[i] = backlog[d.name] ?? 0));
    for (let l = 0; l < system.links.length; l++) {
      links[2 * l] = backlog[linkDirectionName(system, l, 0)] ?? 0;
      links[2 * l + 1] = backlog[linkDirectionName(system, l, 1)] ?? 0;
    }
  }
  return { devices, links };
}
