// Re-planning the rest of a run: the operators already started keep their choices, the finished
// ones cost nothing more and leave their outputs where they were computed (the current data
// placement), and the others are searched again with the cost model as it now stands (corrected
// by what the run observed), under the plan's objectives, constraints and policy.

import type { BoundWorkload } from '../workloads/bind.js';
import { Evaluator } from '../scheduler/evaluate.js';
import { pick } from '../scheduler/policy.js';
import type { Plan } from '../scheduler/schedule.js';
import { chooseStrategy } from '../scheduler/search/index.js';
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
    for (const part of plan.choices[i]![genome[i]!]!.parts) s += costs.cost(op, part.device, part.begin, part.end).seconds;
  });
  return s;
}

/**
 * A new genome for the operators not yet started (the started ones keep theirs), or null when
 * no mapping of the rest satisfies the plan's constraints.
 */
export function replanRemaining(
  plan: Plan,
  predictions: CostSource,
  genome: Int32Array,
  started: readonly boolean[],
  done: readonly boolean[],
  allowed: (device: number) => boolean = () => true,
): Int32Array | null {
  const { bound, choices } = plan;
  const system = plan.context.system;
  const source: CostSource = {
    cost: (op, d, b, e) => (done[op.index] ? { seconds: 0, joules: 0 } : predictions.cost(op, d, b, e)),
  };
  const table = new CostTable(choices, bound.ops, source);
  const all = new Evaluator(bound, system, table, ['time', 'energy', 'memory', 'latency'], plan.constraints);
  const searched = new Evaluator(bound, system, table, plan.objectives, plan.constraints);
  // Genes of started operators have one value: their current choice.
  const free = bound.ops.map((_, i) => i).filter((i) => !started[i]);
  // Only choices whose every part is on an allowed device.
  const options = free.map((i) => choices[i]!.flatMap((ch, c) => (ch.parts.every((p) => allowed(p.device)) ? [c] : [])));
  if (options.some((o) => o.length === 0)) return null;
  const cardinality = Int32Array.from(options, (o) => o.length);
  const full = Int32Array.from(genome);
  const expand = (g: Int32Array): Int32Array => {
    free.forEach((i, k) => (full[i] = options[k]![g[k]!]!));
    return full;
  };
  if (free.length === 0) return null;
  const strategy = chooseStrategy(cardinality);
  const seeds = [Int32Array.from(free, (i, k) => options[k]!.indexOf(genome[i]!))].filter((g) => g.every((x) => x >= 0));
  const result = strategy.search(
    { cardinality, objectives: plan.objectives.length as 2 | 3, evaluate: (g, out) => searched.evaluate(expand(g), out), seeds },
    { seed: 1, budget: 2000 },
  );
  if (result.front.length === 0) return null;
  const out4 = new Float64Array(4);
  const candidates = Array.from(result.front, (idx) => {
    const g = Int32Array.from(expand(result.genomes.subarray(idx * result.genes, (idx + 1) * result.genes)));
    all.evaluate(g, out4);
    return { genome: g, time: out4[0]!, energy: out4[1]!, memory: out4[2]!, latency: out4[3]! };
  });
  const k = pick(plan.policyRule, candidates);
  return k < 0 ? null : candidates[k]!.genome;
}
