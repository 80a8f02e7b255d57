// `explore()` and `schedule()`: prepare the planning problem (bind, features, costs), search the
// mapping space for the Pareto front of time against energy, price the baselines, and (for
// `schedule`) pick one mapping by the user's policy and explain the pick.

import { nextTurn } from '../next-turn.js';
import { InfeasibleError } from '../errors.js';
import { formatCount } from '../units.js';
import { checkInt, checkOptions } from '../validate.js';
import type { WorkloadData } from '../workloads/bind.js';
import type { Workload } from '../workloads/definition.js';
import { checkPortableMapping, heftGenome, mappingMismatch, type PortableMapping, portableMapping, singleDeviceGenome, translateMapping } from './baselines.js';
import { branchAndBound, SCALAR_OBJECTIVES } from './branch-and-bound.js';
import { type Constraints, Evaluator, type Metrics, type Objective } from './evaluate.js';
import { explain, type Explanation } from './explain.js';
import { type FrontSearch, type MappingPoint, mappingLabel, mappingPoint, searchFront } from './front.js';
import { type PickResult, pickMapping, scalarObjective } from './pick.js';
import { type Refinement, refineSplits } from './refine.js';
import { verifyNear } from './verify.js';
import { checkPolicy, pick, type Policy, policyName } from './policy.js';
import { type PlanningProblem, prepare, PREPARE_KEYS, type PrepareOptions } from './problem.js';
import type { CostTable } from './space.js';

export { mappingLabel, type MappingPoint };
export { resolveWorkload } from './problem.js';

export interface ExploreOptions extends PrepareOptions {
  /** A mapping carried over from other data, evaluated here as the `static` baseline. */
  readonly staticMapping?: PortableMapping;
  /** Dominated points kept for plotting. @default 5000 */
  readonly maxPoints?: number;
}

export interface ScheduleOptions extends ExploreOptions {
  /** How to pick from the front. @default 'min-time' */
  readonly policy?: Policy;
  /**
   * Keep this mapping (from another input, e.g. the previous one of a stream) instead of picking:
   * the plan's `chosen` is it, translated to this input; the front is still computed.
   */
  readonly fixedMapping?: PortableMapping;
}

export interface BaselinePoint extends Partial<MappingPoint> {
  /** `cpu alone`, `gpu alone`, ..., `heft`, `static`. */
  readonly name: string;
  readonly feasible: boolean;
  /** Why it is missing or infeasible. */
  readonly reason?: string;
}

/** What an exploration found, as plain data (serialisable: JSON, msgpack). */
export interface ExplorationResult {
  readonly workload: string;
  readonly system: string;
  readonly stream: boolean;
  readonly objectives: readonly Objective[];
  readonly constraints: Constraints;
  /** Every figure here is a prediction (cost model and rooflines), not a measurement. */
  readonly modelled: true;
  readonly devices: readonly { readonly name: string; readonly backend: string; readonly simulated: boolean; readonly model: string }[];
  readonly operators: readonly { readonly id: string; readonly kind: string; readonly choices: readonly string[] }[];
  /** The feasible Pareto front, fastest first. Empty when nothing fits (see `empty`). */
  readonly front: readonly MappingPoint[];
  /** Other feasible mappings evaluated (a sample, for plots). */
  readonly dominated: readonly MappingPoint[];
  readonly infeasible: number;
  readonly hypervolume: { readonly value: number; readonly normalised: number; readonly reference: readonly number[] };
  readonly baselines: readonly BaselinePoint[];
  readonly search: {
    readonly strategy: string;
    readonly spaceSize: number;
    readonly evaluated: number;
    readonly exhaustive: boolean;
    readonly seconds: number;
  };
  /** Set when no mapping satisfies the constraints: why, and the nearest miss. */
  readonly empty?: { readonly reason: string };
}

/** An exploration with the live problem it was made from (the executor and re-planning need it). */
export interface Exploration extends ExplorationResult {
  readonly problem: PlanningProblem;
}

/** What a plan says, as plain data: the chosen mapping, what it is predicted to cost, and why. */
export interface PlanResult extends ExplorationResult {
  readonly policy: string;
  /** The policy itself, for re-planning by the same rule. */
  readonly policyRule: Policy;
  readonly chosen: MappingPoint;
  /** The chosen mapping in portable form (devices and shares per operator). */
  readonly mapping: PortableMapping;
  /** Full predicted metrics of the chosen mapping (timeline, transfers, energy split). */
  readonly predicted: Metrics;
  readonly explanation: Explanation;
}

/** A plan with its live problem: what `runPlan` runs. */
export interface Plan extends PlanResult {
  readonly problem: PlanningProblem;
}

/** The plain-data part of an exploration or a plan, without its live problem (for JSON, the service, a cache). */
export function planResult(plan: Plan): PlanResult;
export function planResult(ex: Exploration): ExplorationResult;
export function planResult(x: Exploration | Plan): ExplorationResult | PlanResult {
  const { problem: _, ...rest } = x;
  return rest;
}

const EXPLORE_KEYS = [...PREPARE_KEYS, 'staticMapping', 'maxPoints'] as const;
const SCHEDULE_KEYS = [...EXPLORE_KEYS, 'policy', 'fixedMapping'] as const;

/**
 * The Pareto front of a workload on its data, without choosing.
 * @throws {InvalidArgumentError} on a bad workload, data or option (misspelled names included).
 * @example
 * const ex = await explore('gcn', graph, { objectives: ['time', 'energy'] });
 * ex.front.map((p) => [p.time, p.energy, p.label]);
 */
export async function explore(
  workload: Workload | string | object,
  data: WorkloadData | readonly WorkloadData[],
  options: ExploreOptions = {},
): Promise<Exploration> {
  return (await exploreProblem('explore', workload, data, options, EXPLORE_KEYS)).exploration;
}

/**
 * Plan a workload on its data: the front, the mapping the policy picks from it, the predicted
 * costs and an explanation.
 * @throws {InvalidArgumentError} on a bad workload, data or option.
 * @throws {InfeasibleError} when no mapping satisfies the constraints (the message says which
 *   constraint and by how much the nearest mapping misses it).
 * @example
 * const plan = await schedule('spmm', a, { policy: 'min-energy' });
 * plan.chosen.label;            // e.g. 'Y:cgra 40% + gpu 60%'
 * plan.explanation.summary;     // sentences, with the numbers behind the choice
 */
export async function schedule(
  workload: Workload | string | object,
  data: WorkloadData | readonly WorkloadData[],
  options: ScheduleOptions = {},
): Promise<Plan> {
  const fn = 'schedule';
  checkOptions(fn, options, SCHEDULE_KEYS as unknown as (keyof ScheduleOptions & string)[]);
  const policy = checkPolicy(fn, options.policy ?? 'min-time', { deadline: options.deadline !== undefined, energyBudget: options.energyBudget !== undefined });
  const fixed = options.fixedMapping;
  const { problem, exploration: ex, pointOf } = await exploreProblem(fn, workload, data, fixed ? { ...options, staticMapping: fixed } : options, SCHEDULE_KEYS);
  let chosen: MappingPoint;
  let picked: PickResult | undefined;
  let planned = problem;
  let refined: Refinement[] = [];
  const objective = scalarObjective(policy);
  if (fixed) {
    const kept = ex.baselines.find((b) => b.name === 'static');
    if (!kept?.genome || !kept.feasible) throw new InfeasibleError(`${fn}: the fixed mapping cannot run here: ${kept?.reason ?? 'it does not fit'}`);
    chosen = kept as MappingPoint;
  } else if (objective) {
    await nextTurn(options.signal);
    picked = pickMapping(problem, objective, { costs: problem.costs, model: problem.costs }) ?? undefined;
    if (!picked) throw new InfeasibleError(`${fn}: ${ex.empty?.reason ?? 'no mapping fits'}`);
    // A split's parts are probed where they are and re-balanced (when planning probes).
    ({ problem: planned, picked, refined } = await refineSplits(problem, picked, objective));
    // Alternatives within reach of the pick are run exactly before it is final.
    ({ problem: planned, picked } = await verifyNear(planned, picked, objective));
    chosen = planned === problem ? pointOf(picked.genome) : mappingPoint(planned, picked.genome);
  } else {
    if (ex.front.length === 0) throw new InfeasibleError(`${fn}: ${ex.empty?.reason ?? 'no mapping fits'}`);
    chosen = ex.front[pick(policy, ex.front)]!;
  }
  const predicted = planned.evaluator.metrics(chosen.genome);
  const { bound, system, model, costs, table } = planned;
  return {
    ...ex,
    problem: planned,
    policy: policyName(policy),
    policyRule: policy,
    chosen,
    // Refinement adds choices (earlier ones keep their indices): list them, or the chosen genome points past the list.
    operators: planned === problem ? ex.operators : bound.ops.map((op, i) => ({ id: op.id, kind: op.kind, choices: table.choices[i]!.map((c) => c.label) })),
    mapping: portableMapping(bound, system, table.choices, chosen.genome),
    predicted,
    explanation: explain({
      bound,
      system,
      model,
      costs,
      table,
      exploration: ex,
      chosen,
      predicted,
      evaluator: planned.evaluator,
      policy,
      refined,
      probed: planned.prober !== undefined,
      ...(picked ? { picked } : {}),
    }),
  };
}

/** Prepare, search and price the baselines: an exploration with its problem. */
async function exploreProblem(
  fn: string,
  workloadArg: Workload | string | object,
  data: WorkloadData | readonly WorkloadData[],
  options: ExploreOptions,
  keys: readonly string[],
): Promise<{ problem: PlanningProblem; exploration: Exploration; pointOf: (genome: Int32Array) => MappingPoint }> {
  checkOptions(fn, options, keys as (keyof ExploreOptions & string)[]);
  // A fixed mapping comes here as the static one: name the option the caller gave.
  const mappingOption = (options as { fixedMapping?: unknown }).fixedMapping !== undefined ? 'fixedMapping' : 'staticMapping';
  if (options.staticMapping !== undefined) checkPortableMapping(fn, mappingOption, options.staticMapping);
  const maxPoints = options.maxPoints === undefined ? 5000 : checkInt(fn, 'maxPoints', options.maxPoints, 0);
  const problem = await prepare(fn, workloadArg, data, options, keys);
  const { workload, bound, system, model, allowed, choices, table, evaluator, objectives, constraints } = problem;

  const seeds: Int32Array[] = [];
  for (const d of allowed) {
    const g = singleDeviceGenome(choices, d);
    if (g) seeds.push(g);
  }
  const heft = heftGenome(bound, system, table);
  seeds.push(heft);
  // Greedy: each operator on the device (or split) fastest for it alone.
  seeds.push(
    Int32Array.from(
      choices.map((c, i) => {
        let best = 0;
        for (let j = 1; j < c.length; j++) if (choiceSeconds(table, i, j) < choiceSeconds(table, i, best)) best = j;
        return best;
      }),
    ),
  );
  // The exact best of each scalar objective (on predicted costs) joins the seeds, so the front
  // holds the mappings the policies pick, whatever the sampled search finds.
  const singles = [...seeds];
  for (const o of SCALAR_OBJECTIVES) {
    await nextTurn(options.signal); // each exact search is a long synchronous stretch: the event loop gets a turn between them
    const best = branchAndBound(new Evaluator(bound, system, table, ['time', 'energy'], constraints), o, { maxNodes: 2e6, seeds: singles });
    if (best.genome.length) seeds.push(best.genome);
  }
  await nextTurn(options.signal);
  const found = searchFront(problem, problem.search, { seeds, maxPoints, ...(options.signal ? { signal: options.signal } : {}) });

  const baselines: BaselinePoint[] = [];
  const baseline = (name: string, g: Int32Array | null, reason: string): void => {
    if (!g) {
      baselines.push({ name, feasible: false, reason });
      return;
    }
    const p = found.pointOf(g);
    const met = evaluator.metrics(g);
    baselines.push({ name, ...p, feasible: met.feasible, ...(met.feasible ? {} : { reason: met.violations.join('; ') }) });
  };
  for (const d of allowed) baseline(`${system.devices[d]!.name} alone`, singleDeviceGenome(choices, d), `${system.devices[d]!.name} cannot run every operator`);
  baseline('heft', heft, '');
  if (options.staticMapping) {
    const mismatch = mappingMismatch(options.staticMapping, bound, system);
    baseline(
      'static',
      mismatch ? null : translateMapping(options.staticMapping, bound, system, choices),
      mismatch ?? "an operator's devices cannot run it here",
    );
  }

  const empty = found.front.length === 0 ? { reason: nearestMiss(problem, found) } : undefined;
  const exploration: Exploration = {
    workload: workload.name,
    system: system.name,
    stream: workload.stream,
    objectives,
    constraints,
    modelled: true,
    devices: system.devices.map((d) => {
      const s = model.state(d);
      return {
        name: d.name,
        backend: d.backend,
        simulated: d.simulated,
        model: s.state === 'calibrated' ? `calibrated ${s.createdAt}${s.quick ? ' (quick)' : ''}` : `uncalibrated: ${s.reason}`,
      };
    }),
    operators: bound.ops.map((op, i) => ({ id: op.id, kind: op.kind, choices: choices[i]!.map((c) => c.label) })),
    front: found.front,
    dominated: found.dominated,
    infeasible: found.infeasible,
    hypervolume: found.hypervolume,
    baselines,
    search: { strategy: found.strategy, spaceSize: found.spaceSize, evaluated: found.evaluated, exhaustive: found.exhaustive, seconds: found.seconds },
    ...(empty ? { empty } : {}),
    problem,
  };
  return { problem, exploration, pointOf: found.pointOf };
}

/** Why the front is empty: the fastest mapping evaluated, and what it breaks. */
function nearestMiss(problem: PlanningProblem, found: FrontSearch): string {
  const { result } = found;
  const m = problem.objectives.length;
  let best = -1;
  for (let i = 0; i < result.count; i++) if (best < 0 || result.values[i * m]! < result.values[best * m]!) best = i;
  const why = best >= 0 ? problem.evaluator.metrics(found.genomeAt(best)).violations.join('; ') : 'nothing was evaluated';
  return `no mapping of ${formatCount(result.count)} evaluated satisfies the constraints; the best by ${problem.objectives[0]} breaks them: ${why}`;
}

/** The time of choice `j` of operator `i` run alone: its slowest part. */
function choiceSeconds(table: CostTable, i: number, j: number): number {
  const g = table.choiceBase[i]! + j;
  let t = 0;
  for (let p = table.partBegin[g]!; p < table.partBegin[g]! + table.partCount[g]!; p++) t = Math.max(t, table.partSeconds[p]!);
  return t;
}
