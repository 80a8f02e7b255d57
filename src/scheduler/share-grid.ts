// The share grid of split operators and its balance points, from the workload and the system
// alone: every operator whole on each device that can run it, and for the operators a split may
// divide, a fixed grid of shares (two-way splits every 4%, so the true balance point of any pair
// lies within 2% of a grid point, or at every unit where there are at most 50; three-way splits
// every 10%), plus the shares at which the
// parts' times are equal, computed from whatever costs the caller has: the planner's
// predictions, or the oracle's executions. Nothing here reads a cost model itself.

import type { System } from '../devices/system.js';
import type { BoundOp, BoundWorkload } from '../workloads/bind.js';
import { canRun, type Choice, choiceKey, type SpaceOptions, splitChoice, splittable, wholeChoice } from './space.js';

export interface ShareGrid {
  /** Spacing of two-way shares. @default 0.04 */
  readonly pairStep: number;
  /** Spacing of three-way shares. @default 0.1 */
  readonly tripleStep: number;
}

export const DEFAULT_GRID: ShareGrid = { pairStep: 0.04, tripleStep: 0.1 };

/** Every choice of one operator, without duplicates (two shares that round to the same rows are one). */
export class ChoiceSet {
  readonly choices: Choice[] = [];
  private readonly seen = new Set<string>();
  add(choice: Choice | null): Choice | null {
    if (!choice) return null;
    const key = choiceKey(choice);
    if (this.seen.has(key)) return null;
    this.seen.add(key);
    this.choices.push(choice);
    return choice;
  }
}

/** Devices (system indices) among `allowed` that can run `op`. */
export function capableDevices(bound: BoundWorkload, system: System, allowed: readonly number[], op: BoundOp): number[] {
  return allowed.filter((d) => canRun(system.devices[d]!, op, bound));
}

/** Pairs and triples of capable devices a split of `op` may use under the space options. */
export function deviceGroups(capable: readonly number[], space: SpaceOptions): { pairs: number[][]; triples: number[][] } {
  const pairs: number[][] = [];
  const triples: number[][] = [];
  for (let i = 0; i < capable.length; i++) {
    for (let j = i + 1; j < capable.length; j++) {
      pairs.push([capable[i]!, capable[j]!]);
      if ((space.maxSplit ?? 3) >= 3) for (let k = j + 1; k < capable.length; k++) triples.push([capable[i]!, capable[j]!, capable[k]!]);
    }
  }
  return { pairs, triples };
}

/** Singles and the share grid of one operator. */
export function gridChoices(
  bound: BoundWorkload,
  system: System,
  op: BoundOp,
  capable: readonly number[],
  space: SpaceOptions,
  grid: ShareGrid = DEFAULT_GRID,
): ChoiceSet {
  const names = system.devices.map((d) => d.name);
  const set = new ChoiceSet();
  for (const d of capable) set.add(wholeChoice(op, d, names));
  if (!splittable(op, space)) return set;
  const { pairs, triples } = deviceGroups(capable, space);
  const steps = (step: number): number[] => {
    const out: number[] = [];
    for (let k = 1; k * step < 1 - 1e-9; k++) out.push(k * step);
    return out;
  };
  // An operator of few units (a multi-source BFS's 32 sources) is split at every unit: its grid
  // would skip counts (4% of 32 sources is 1.28), and the best two-way split was one of them.
  const pairShares = op.units <= 2 / grid.pairStep ? Array.from({ length: op.units - 1 }, (_, k) => (k + 1) / op.units) : steps(grid.pairStep);
  for (const devs of pairs) for (const s of pairShares) set.add(splitChoice(op, bound, names, devs, [s, 1 - s]));
  const t = steps(grid.tripleStep);
  for (const devs of triples) {
    for (const a of t) for (const b of t) if (a + b < 1 - 1e-9) set.add(splitChoice(op, bound, names, devs, [a, b, 1 - a - b]));
  }
  return set;
}

/** Shares at which parts whose whole-operator times are `seconds` finish together: inversely proportional to time. */
export function balancedShares(seconds: readonly number[]): number[] {
  const inv = seconds.map((t) => 1 / Math.max(t, 1e-15));
  const sum = inv.reduce((x, y) => x + y, 0);
  return inv.map((x) => x / sum);
}

/**
 * For each pair of devices, the share where the measured times of the two parts cross, from the
 * grid points on either side (linear between them). The parts of a two-way split at share s of
 * device a take t_a(s), rising with s, and t_b(1 - s), falling: they cross once.
 */
export function crossingShares(choices: readonly Choice[], partSeconds: (choice: Choice, part: number) => number): { devs: number[]; share: number }[] {
  const byPair = new Map<string, { devs: number[]; points: { s: number; f: number }[] }>();
  for (const ch of choices) {
    if (ch.parts.length !== 2) continue;
    const devs = ch.parts.map((p) => p.device);
    const key = devs.join(',');
    let entry = byPair.get(key);
    if (!entry) byPair.set(key, (entry = { devs, points: [] }));
    entry.points.push({ s: ch.parts[0]!.fraction, f: partSeconds(ch, 0) - partSeconds(ch, 1) });
  }
  const out: { devs: number[]; share: number }[] = [];
  for (const { devs, points } of byPair.values()) {
    points.sort((a, b) => a.s - b.s);
    for (let k = 1; k < points.length; k++) {
      const a = points[k - 1]!;
      const b = points[k]!;
      if (a.f < 0 && b.f >= 0) {
        out.push({ devs, share: a.s + ((b.s - a.s) * -a.f) / (b.f - a.f) });
        break;
      }
    }
  }
  return out;
}
