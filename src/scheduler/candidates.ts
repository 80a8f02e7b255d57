// The planner's mapping space: for every operator, the ways it may run. Each operator whole on
// every device that can run it; and for the operators a split may divide, the share grid of
// share-grid.ts (the oracle's grid too), the balance points of the model's predictions for the
// whole operator on each device, and, where the predicted times of the parts cross between two
// grid points, the crossing itself (three-way splits re-balanced twice from their parts'
// predictions). A user's `splitRatios` replaces the grid with those ratios.

import type { System } from '../devices/system.js';
import type { BoundOp, BoundWorkload } from '../workloads/bind.js';
import { balancedShares, capableDevices, ChoiceSet, crossingShares, deviceGroups, gridChoices } from './share-grid.js';
import { type Choice, type SpaceOptions, splitChoice, splittable, wholeChoice } from './space.js';

/** Predicted seconds of units `[begin, end)` of an operator on a device. */
export type PartSeconds = (op: BoundOp, device: number, begin: number, end: number) => number;

/**
 * Every choice for every operator. `singleSeconds(op, device)` gives the predicted time of the
 * whole operator on a device (it sets the balanced shares); `partSeconds`, when given, prices
 * parts so the shares where two parts' times cross can be added.
 */
export function buildChoices(
  bound: BoundWorkload,
  system: System,
  allowed: readonly number[],
  options: SpaceOptions,
  singleSeconds: (op: BoundOp, device: number) => number,
  partSeconds?: PartSeconds,
): Choice[][] {
  const names = system.devices.map((d) => d.name);
  return bound.ops.map((op) => {
    const capable = capableDevices(bound, system, allowed, op);
    if (!splittable(op, options)) return capable.map((d) => wholeChoice(op, d, names));
    const whole = new Map(capable.map((d) => [d, Math.max(singleSeconds(op, d), 1e-12)]));
    const { pairs, triples } = deviceGroups(capable, options);
    if (options.splitRatios) return ratioChoices(op, bound, names, capable, options.splitRatios, pairs, triples, whole);
    const set = gridChoices(bound, system, op, capable, options);
    const balanced: Choice[] = [];
    for (const devs of [...pairs, ...triples]) {
      const added = set.add(splitChoice(op, bound, names, devs, balancedShares(devs.map((d) => whole.get(d)!))));
      if (added && added.parts.length === 3) balanced.push(added);
    }
    if (!partSeconds) return set.choices;
    const seconds = (ch: Choice, k: number): number => {
      const p = ch.parts[k]!;
      return partSeconds(op, p.device, p.begin, p.end);
    };
    for (const { devs, share } of crossingShares(set.choices, seconds)) set.add(splitChoice(op, bound, names, devs, [share, 1 - share]));
    let triple = balanced;
    for (let round = 0; round < 2; round++) {
      triple = triple.flatMap((ch) => {
        const next = balancedShares(ch.parts.map((p, k) => seconds(ch, k) / Math.max(p.fraction, 1e-12)));
        const added = set.add(
          splitChoice(
            op,
            bound,
            names,
            ch.parts.map((p) => p.device),
            next,
          ),
        );
        return added ? [added] : [];
      });
    }
    return set.choices;
  });
}

/** The space as a user's split ratios define it: those shares of two-way splits, and balanced ones. */
function ratioChoices(
  op: BoundOp,
  bound: BoundWorkload,
  names: readonly string[],
  capable: readonly number[],
  ratios: readonly number[],
  pairs: readonly number[][],
  triples: readonly number[][],
  whole: ReadonlyMap<number, number>,
): Choice[] {
  const set = new ChoiceSet();
  for (const d of capable) set.add(wholeChoice(op, d, names));
  for (const [a, b] of pairs) {
    const balanced = whole.get(b!)! / (whole.get(a!)! + whole.get(b!)!);
    const shares = [...ratios];
    if (ratios.every((r) => Math.abs(r - balanced) > 0.03)) shares.push(balanced);
    for (const r of shares) set.add(splitChoice(op, bound, names, [a!, b!], [r, 1 - r]));
  }
  for (const devs of triples) {
    set.add(splitChoice(op, bound, names, devs, [1 / 3, 1 / 3, 1 / 3]));
    set.add(splitChoice(op, bound, names, devs, balancedShares(devs.map((d) => whole.get(d)!))));
  }
  return set.choices;
}
