// Re-planning the rest of a run: the operators already started keep their choices, the finished
// ones cost nothing more and leave their outputs where they were computed (the current data
// placement), and the others are searched again with the cost model as it now stands (corrected
// by what the run observed), under the plan's objectives, constraints and policy.

import type { BoundWorkload } from '../workloads/bind.js';
import { searchFront } from '../scheduler/front.js';
import { pick } from '../scheduler/policy.js';
import type { Plan } from '../scheduler/schedule.js';
import { type CostSource, CostTable } from '../scheduler/space.js';

/** How much slower (> 1) or faster than predicted a device has run an operator kind in this run. */
export type Scale = (kind: string, device: number) => number;

/** Costs scaled by what the run observed. */
export function scaledCosts(costs: CostSource, scale: Scale): CostSource {
  return {
    cost: (op, d, b, e) => {
      const c = costs.cost(op, d, b, e);
      const f = scale(op.kind, d);
      return f === 1 ? c : { seconds: c.seconds * f, joules: c.joules * f };
    },
  };
}

/** Predicted seconds of the operators not yet started, under `genome`. */
export function remainingSeconds(bound: BoundWorkload, plan: Plan, costs: CostSource, genome: Int32Array, started: readonly boolean[]): number {
  let s = 0;
  bound.ops.forEach((op, i) => {
    if (started[i]) return;
    for (const part of plan.problem.choices[i]![genome[i]!]!.parts) s += costs.cost(op, part.device, part.begin, part.end).seconds;
  });
  return s;
}

/**
 * A new genome for the operators not yet started (the started ones keep theirs), or null when
 * no mapping of the rest satisfies the plan's constraints. The planner's own front search, with
 * the plan's strategy, seed and budget, over the costs as they now stand.
 */
export function replanRemaining(
  plan: Plan,
  predictions: CostSource,
  genome: Int32Array,
  started: readonly boolean[],
  done: readonly boolean[],
  allowed: (device: number) => boolean = () => true,
): Int32Array | null {
  const { bound, choices, system, objectives, constraints } = plan.problem;
  const source: CostSource = {
    cost: (op, d, b, e) => (done[op.index] ? { seconds: 0, joules: 0 } : predictions.cost(op, d, b, e)),
  };
  const table = new CostTable(choices, bound.ops, source);
  // Started operators are held; the others may take any choice whose every part is on an allowed device.
  const genes = bound.ops.map((_, i) => (started[i] ? null : choices[i]!.flatMap((ch, c) => (ch.parts.every((p) => allowed(p.device)) ? [c] : []))));
  if (genes.some((o) => o !== null && o.length === 0)) return null;
  if (genes.every((o) => o === null)) return null;
  const found = searchFront({ bound, system, choices, table, objectives, constraints }, plan.problem.search, { genes, held: genome, seeds: [genome] });
  if (found.front.length === 0) return null;
  const k = pick(plan.policyRule, found.front);
  return k < 0 ? null : Int32Array.from(found.front[k]!.genome);
}
