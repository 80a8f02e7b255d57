// Re-planning the rest of a run: the operators already started keep their choices, the finished
// ones cost nothing more and leave their outputs where they were computed (the current data
// placement), and the others are searched again with the cost model as it now stands (corrected
// by what the run observed), under the plan's objectives, constraints and policy.

import type { BoundWorkload } from '../workloads/bind.js';
import type { Backlog } from '../scheduler/backlog.js';
import { objectiveValue } from '../scheduler/branch-and-bound.js';
import { Evaluator } from '../scheduler/evaluate.js';
import { searchFront } from '../scheduler/front.js';
import { pickMapping, scalarObjective } from '../scheduler/pick.js';
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

/** What re-planning the rest of a run decided. */
export interface Replanned {
  /** The mapping to run from now on (the one in force when nothing beats it by more than `margin`). */
  readonly genome: Int32Array;
  /** Whether it differs from the mapping in force. */
  readonly changed: boolean;
  /** How much better than the mapping in force the best other mapping is predicted (0.1: 10%). */
  readonly gain: number;
  /** The model's resolution: the least predicted gain that moves work. */
  readonly margin: number;
}

/**
 * A new mapping for the operators not yet started (the started ones keep theirs), found as
 * planning finds one: the policy's exact best on the costs as they now stand (or the front's pick
 * for a weighted policy), ties going to simpler mappings. With `hold`, the mapping in force is
 * kept unless the new one is predicted better by more than the model's resolution: hysteresis, so
 * a run does not flip between near-equal mappings as its observations move. Null when no mapping
 * of the rest satisfies the plan's constraints. With `backlog`, the devices and links start
 * after it (a run sharing its machine re-plans against the queues it finds).
 */
export function replanRemaining(
  plan: Plan,
  predictions: CostSource,
  genome: Int32Array,
  started: readonly boolean[],
  done: readonly boolean[],
  allowed: (device: number) => boolean = () => true,
  hold = true,
  backlog?: Backlog,
): Replanned | null {
  const { bound, choices, system, objectives } = plan.problem;
  // A run on a shared machine re-plans against the machine's queues as they are now.
  const constraints = backlog ? { ...plan.problem.constraints, backlog } : plan.problem.constraints;
  const source: CostSource = {
    cost: (op, d, b, e) => (done[op.index] ? { seconds: 0, joules: 0 } : predictions.cost(op, d, b, e)),
  };
  const table = new CostTable(choices, bound.ops, source);
  if (backlog) table.settled = Uint8Array.from(done, (d) => (d ? 1 : 0));
  // Started operators are held; the others may take any choice whose every part is on an allowed device.
  const free = bound.ops.map((_, i) => (started[i] ? null : choices[i]!.flatMap((ch, c) => (ch.parts.every((p) => allowed(p.device)) ? [c] : []))));
  if (free.some((o) => o !== null && o.length === 0)) return null;
  if (free.every((o) => o === null)) return null;
  const problem = { bound, system, choices, table, objectives, constraints };
  const objective = scalarObjective(plan.policyRule);
  let next: Int32Array;
  let margin: number;
  if (objective) {
    const genes = free.map((o, i) => o ?? [genome[i]!]);
    const picked = pickMapping(problem, objective, { costs: source, model: plan.problem.costs, genes });
    if (!picked) return null;
    next = picked.genome;
    margin = picked.margin;
  } else {
    const found = searchFront(problem, plan.problem.search, { genes: free, held: genome, seeds: [genome] });
    if (found.front.length === 0) return null;
    const k = pick(plan.policyRule, found.front);
    if (k < 0) return null;
    next = Int32Array.from(found.front[k]!.genome);
    margin = 0.01;
  }
  // Hysteresis: the mapping in force stays unless the new one is better by more than the margin.
  const evaluator = new Evaluator(bound, system, table, ['time', 'energy'], constraints);
  const out = new Float64Array(2);
  const scalar = (g: Int32Array): number => (evaluator.evaluate(g, out) ? objectiveValue(objective ?? 'min-time', out[0]!, out[1]!) : Infinity);
  const now = scalar(genome);
  const then = scalar(next);
  const gain = now > 0 && Number.isFinite(now) ? 1 - then / now : Number.isFinite(then) ? 1 : 0;
  const same = next.every((c, i) => c === genome[i]);
  if (same || (hold && Number.isFinite(now) && then >= now * (1 - margin)))
    return { genome: Int32Array.from(genome), changed: false, gain: Math.max(0, gain), margin };
  return { genome: next, changed: true, gain, margin };
}
