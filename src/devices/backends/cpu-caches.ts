// The host CPU's cache sizes as Linux reports them (sysfs), in the cpu profile's parameter names,
// so that they replace the profile's assumed figures the way the CUDA backend's probe replaces
// its card's; on other systems the profile's figures stand, and their source says so.

import { readFileSync } from 'node:fs';
import type { SpecParam } from '../device.js';

const UNITS: Readonly<Record<string, number>> = { '': 1, K: 1024, M: 2 ** 20, G: 2 ** 30 };

/** Bytes of the cache at sysfs `index` of cpu0, or undefined where unreadable. */
function sysfsCache(index: number): number | undefined {
  try {
    const text = readFileSync(`/sys/devices/system/cpu/cpu0/cache/index${index}/size`, 'utf8').trim();
    const m = /^(\d+)([KMG]?)/.exec(text);
    return m ? Number(m[1]) * UNITS[m[2]!]! : undefined;
  } catch {
    return undefined; // not Linux, or no such level
  }
}

let detected: Record<string, SpecParam> | undefined;

/**
 * `l2KbPerCore` and `llcKb` from sysfs (index 2 and 3 of cpu0: L2 and the last level on x86 and
 * most Arm servers), each only where readable. Read once per process.
 */
export function detectedCacheParams(): Readonly<Record<string, SpecParam>> {
  if (detected) return detected;
  detected = {};
  const source = 'read from /sys/devices/system/cpu/cpu0/cache at run time';
  const l2 = sysfsCache(2);
  const llc = sysfsCache(3);
  if (l2 !== undefined) detected['l2KbPerCore'] = { value: l2 / 1024, unit: 'KiB', source };
  if (llc !== undefined) detected['llcKb'] = { value: llc / 1024, unit: 'KiB', source };
  return detected;
}
