// Picking one mapping for a policy. For a policy that minimises one quantity (time, energy, their
// product, each possibly under a deadline or an energy budget), the pick is the exact best of the
// whole mapping space on predicted costs (branch and bound), not the best of a sampled front.
// Then ties go to the simpler mapping: a split, or a spread over more devices, is kept only
// when it beats the best simpler mapping by more than the model's resolution (a share of the
// prediction uncertainty of the devices involved), so a 0.1% predicted gain from putting six rows
// on a third device does not win, and a re-plan does not flip between near-equal mappings.

import { type Optimum, branchAndBound, type ScalarObjective, objectiveValue } from './branch-and-bound.js';
import type { PlanningCosts } from './costs.js';
import { Evaluator } from './evaluate.js';
import type { FrontProblem } from './front.js';
import type { Policy } from './policy.js';
import { partsOf, REAL_SPEED_DRIFT, robustPick } from './robust.js';
import { type Choice, type CostSource, CostTable } from './space.js';

/** The scalar a policy minimises, or undefined for a weighted policy (picked from the front). */
export function scalarObjective(policy: Policy): ScalarObjective | undefined {
  switch (policy) {
    case 'min-time':
    case 'fastest-within-budget':
      return 'min-time';
    case 'min-energy':
    case 'frugal-within-deadline':
      return 'min-energy';
    case 'min-edp':
      return 'min-edp';
    default:
      return undefined;
  }
}

/** A fraction of the devices' prediction uncertainty: the smallest predicted gain that counts. */
const MARGIN_SHARE = 0.1;
const MIN_MARGIN = 0.005;
const MAX_MARGIN = 0.05;

/** What a simpler pick dropped; 'other shares' keeps every part and moves the split points (the drift rule). */
type Simplification = 'one device' | 'no split' | 'fewer splits' | 'other shares';

export interface PickResult {
  readonly genome: Int32Array;
  /** Whether the search over the whole space finished (the pick is the model's exact best). */
  readonly exact: boolean;
  /** The relative gain below which a more complex mapping lost to a simpler one. */
  readonly margin: number;
  /** Set when a simpler mapping was kept: the complex one it beat, and by how much that one was predicted better. */
  readonly simplified?: {
    readonly over: Int32Array;
    readonly gain: number;
    readonly kind: Simplification;
    /**
     * Set when the drift rule (robust.ts) kept it: over the scenarios of a real device `drift`
     * faster or slower than priced, it is `gain` better on the mean than the mapping `over`.
     */
    readonly exposure?: { readonly drift: number; readonly gain: number };
  };
}

export interface PickOptions {
  /** Costs to pick by (the model's; re-planning passes them scaled by the run's observations). */
  readonly costs: CostSource;
  /** The planning costs, for the uncertainty of each whole-operator figure. */
  readonly model: PlanningCosts;
  /** Per operator, the choices it may take (every choice by default); a single one holds it. */
  readonly genes?: readonly (readonly number[])[];
  /** Partial mappings the search may visit. @default 2e6 */
  readonly maxNodes?: number;
}

/** The best of a restricted space: each operator limited to some of its choices. */
function bestOf(
  problem: FrontProblem,
  objective: ScalarObjective,
  costs: CostSource,
  genes: readonly (readonly number[])[],
  maxNodes: number,
  seeds: readonly Int32Array[] = [],
): Optimum {
  const { bound, system, choices, constraints } = problem;
  const restricted: Choice[][] = genes.map((g, i) => g.map((c) => choices[i]![c]!));
  const table = new CostTable(restricted, bound.ops, costs);
  table.settled = problem.table.settled; // per operator, whatever its choices
  const evaluator = new Evaluator(bound, system, table, ['time', 'energy'], constraints);
  // Seeds given in the whole space's indices, kept where every gene can express them.
  const local = seeds.flatMap((s) => {
    const g = Int32Array.from(s, (c, i) => genes[i]!.indexOf(c));
    return g.every((x) => x >= 0) ? [g] : [];
  });
  const found = branchAndBound(evaluator, objective, { maxNodes, seeds: local });
  const genome = found.genome.length ? Int32Array.from(found.genome, (c, i) => genes[i]![c]!) : found.genome;
  return { ...found, genome };
}

/**
 * The resolution of the figures a mapping is priced with: a share of the model's uncertainty
 * (its stated 90th-percentile error across inputs, mostly a bias the mappings share), or the
 * spread a probe of this input observed, whichever is larger among the mapping's parts.
 */
function marginOf(problem: FrontProblem, model: PlanningCosts, genome: Int32Array): number {
  let m = 0;
  problem.bound.ops.forEach((op, i) => {
    for (const p of problem.choices[i]![genome[i]!]!.parts) {
      const e = model.whole(op, p.device);
      if (e.basis === 'cost model') m = Math.max(m, MARGIN_SHARE * e.uncertainty);
      else if (e.basis === 'probed') m = Math.max(m, e.uncertainty);
    }
  });
  return Math.min(MAX_MARGIN, Math.max(MIN_MARGIN, m));
}

/**
 * The mapping a scalar policy picks: the best of the space, or the best simpler one within the
 * model's resolution of it. Null when no mapping satisfies the constraints.
 */
export function pickMapping(problem: FrontProblem, objective: ScalarObjective, options: PickOptions): PickResult | null {
  const { choices } = problem;
  const maxNodes = options.maxNodes ?? 2e6;
  const genes = options.genes ?? choices.map((cs) => cs.map((_, c) => c));
  // The simplest first: every operator on one device (these seed the searches below), then no
  // operator split, then anything.
  const devices = new Set(choices.flatMap((cs) => cs.flatMap((c) => c.parts.map((p) => p.device))));
  let oneDevice: Optimum | undefined;
  const seeds: Int32Array[] = [];
  for (const d of devices) {
    const g = genes.map((gs, i) => gs.filter((c) => choices[i]![c]!.parts.length === 1 && choices[i]![c]!.parts[0]!.device === d));
    if (g.some((x) => x.length === 0)) continue;
    const o = bestOf(problem, objective, options.costs, g, maxNodes);
    if (o.genome.length) seeds.push(o.genome);
    if (o.genome.length && (!oneDevice || o.value < oneDevice.value)) oneDevice = o;
  }
  const whole = genes.map((gs, i) => gs.filter((c) => choices[i]![c]!.parts.length === 1));
  const noSplit = whole.every((x) => x.length > 0) ? bestOf(problem, objective, options.costs, whole, maxNodes, seeds) : undefined;
  if (noSplit?.genome.length) seeds.push(noSplit.genome);
  const best = bestOf(problem, objective, options.costs, genes, maxNodes, seeds);
  if (best.genome.length === 0) return null;
  const margin = marginOf(problem, options.model, best.genome);
  const within = (o: Optimum): boolean => o.genome.length > 0 && o.value <= best.value * (1 + margin);
  // The candidates, simplest first; the margin rule takes the first within reach of the best.
  const ladder: { o: Optimum; kind?: Simplification }[] = [];
  if (oneDevice?.genome.length) ladder.push({ o: oneDevice, kind: 'one device' });
  if (noSplit?.genome.length && !ladder.some((c) => sameGenome(c.o.genome, noSplit.genome))) ladder.push({ o: noSplit, kind: 'no split' });
  if (!ladder.some((c) => sameGenome(c.o.genome, best.genome))) ladder.push({ o: best });
  const ruled = ladder.findIndex((c) => within(c.o));
  const ruledPick = ladder[ruled]!;
  // Then the drift rule may simplify further (robust.ts): never toward a more complex mapping.
  const robust = robustPick(
    problem,
    objective,
    options.costs,
    ruledPick.o.genome,
    ladder.slice(0, ruled).map((c) => c.o.genome),
    genes,
    // A calibration that measured this machine steadier relaxes the rule; a shakier one does not
    // tighten it (weighing the 47-60% measured on the development VMs picked no better).
    (d) => Math.min(REAL_SPEED_DRIFT, options.model.speedDrift?.(d) ?? REAL_SPEED_DRIFT),
  );
  const result = { exact: best.exact, margin };
  if (robust && !sameGenome(robust.genome, ruledPick.o.genome)) {
    const exposure = { drift: robust.drift, gain: 1 - robust.mean / robust.startMean };
    const gain = robust.value / ruledPick.o.value - 1;
    const devices = new Set(Array.from(robust.genome).flatMap((c, i) => choices[i]![c]!.parts.map((p) => p.device)));
    const unsplit = Array.from(robust.genome).every((c, i) => choices[i]![c]!.parts.length === 1);
    const fewer = partsOf(problem, robust.genome) < partsOf(problem, ruledPick.o.genome);
    const kind: Simplification = devices.size === 1 ? 'one device' : unsplit ? 'no split' : fewer ? 'fewer splits' : 'other shares';
    return { ...result, genome: robust.genome, simplified: { over: ruledPick.o.genome, gain, kind, exposure } };
  }
  const { o, kind } = ruledPick;
  const gain = o.value / best.value - 1;
  if (!(gain > 0) || !kind) return { ...result, genome: o.genome };
  return { ...result, genome: o.genome, simplified: { over: best.genome, gain, kind } };
}

const sameGenome = (a: Int32Array, b: Int32Array): boolean => a.length === b.length && a.every((c, i) => c === b[i]);

export { objectiveValue };
