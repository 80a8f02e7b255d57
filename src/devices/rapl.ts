// Package energy from Linux RAPL (powercap): a monotonic microjoule counter per CPU package.
// Readable only where the kernel exposes it and permissions allow (often root only since 2020);
// elsewhere the CPU device models energy from its power profile and says so.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = '/sys/class/powercap';

interface Zone {
  readonly energyFile: string;
  /** The counter wraps to zero past this many microjoules. */
  readonly rangeUj: number;
}

/** A reader over every readable package zone, or undefined when RAPL is unavailable here. */
export class RaplReader {
  private constructor(private readonly zones: readonly Zone[]) {}

  /** Find readable package zones (`intel-rapl:N`, also used by AMD's driver), or explain why not. */
  static open(root = ROOT): RaplReader | { readonly reason: string } {
    let entries: string[];
    try {
      entries = readdirSync(root);
    } catch {
      return { reason: `${root} does not exist` };
    }
    const zones: Zone[] = [];
    let denied = false;
    for (const e of entries) {
      // Top-level zones only (intel-rapl:0, not intel-rapl:0:0): subzones are inside packages.
      if (!/^[a-z-]+rapl:\d+$/.test(e)) continue;
      const dir = join(root, e);
      try {
        const name = readFileSync(join(dir, 'name'), 'utf8').trim();
        if (!name.startsWith('package')) continue;
        const energyFile = join(dir, 'energy_uj');
        Number(readFileSync(energyFile, 'utf8'));
        const rangeUj = Number(readFileSync(join(dir, 'max_energy_range_uj'), 'utf8'));
        zones.push({ energyFile, rangeUj: Number.isFinite(rangeUj) && rangeUj > 0 ? rangeUj : 2 ** 32 });
      } catch {
        denied = true;
      }
    }
    if (zones.length === 0) return { reason: denied ? `${root} package counters are not readable by this user` : `no package zones under ${root}` };
    return new RaplReader(zones);
  }

  /** Counter values now, one per zone, in microjoules. */
  sample(): number[] {
    return this.zones.map((z) => Number(readFileSync(z.energyFile, 'utf8')));
  }

  /** Joules spent between two samples, allowing for one wrap of each counter. */
  joulesBetween(before: readonly number[], after: readonly number[]): number {
    let uj = 0;
    this.zones.forEach((z, i) => {
      const d = after[i]! - before[i]!;
      uj += d >= 0 ? d : d + z.rangeUj;
    });
    return uj / 1e6;
  }
}
