// `explore()` and `schedule()`: bind a workload to its data, price every way to run each operator
// on the system, search the mappings for the Pareto front of time against energy, and (for
// `schedule`) pick one by the user's policy and explain the pick.

import type { Precision } from '../data/dense.js';
import type { CostModel } from '../cost/model.js';
import { loadCostModel } from '../cost/store.js';
import { detectSystem, System } from '../devices/system.js';
import { describe, InfeasibleError, InvalidArgumentError } from '../errors.js';
import { checkInt, checkNumber, checkOptions, suggest } from '../validate.js';
import { bindWorkload, type BoundWorkload, type WorkloadData } from '../workloads/bind.js';
import { defineWorkload, type Workload } from '../workloads/definition.js';
import { workload as shippedWorkload } from '../workloads/library.js';
import { heftGenome, type PortableMapping, portableMapping, singleDeviceGenome, translateMapping } from './baselines.js';
import { ModelCostSource } from './costs.js';
import { Evaluator, type Constraints, type Metrics, type Objective, OBJECTIVES } from './evaluate.js';
import { explain, type Explanation } from './explain.js';
import { hypervolume } from './pareto.js';
import { checkPolicy, pick, type Policy, policyName } from './policy.js';
import { chooseStrategy, type SearchResult, spaceSize, STRATEGIES } from './search/index.js';
import { buildChoices, type Choice, CostTable, type SpaceOptions } from './space.js';

export interface ExploreOptions extends SpaceOptions {
  /** The machine. @default detectSystem() */
  readonly system?: System;
  /** Predictions. @default loadCostModel(system) (calibrated when `dype calibrate` ran) */
  readonly model?: CostModel;
  /** Two or three of time, energy, memory, latency. @default ['time', 'energy'] */
  readonly objectives?: readonly Objective[];
  /** Latest acceptable makespan (a stream: seconds per input). */
  readonly deadline?: number;
  /** Most acceptable energy in joules (a stream: per input). */
  readonly energyBudget?: number;
  /** Device names to leave out. */
  readonly exclude?: readonly string[];
  /** `auto` (exhaustive up to `exhaustiveLimit` mappings, NSGA-II above), or a strategy name. @default 'auto' */
  readonly search?: string;
  /** @default 100000 */
  readonly exhaustiveLimit?: number;
  /** Evaluations NSGA-II may make. @default 2000 */
  readonly budget?: number;
  /** Seed of the search (and of generated inputs). @default 1 */
  readonly seed?: number;
  /** Overrides of the workload's params (feature widths, sources, ...). */
  readonly params?: Readonly<Record<string, number>>;
  readonly precision?: Precision;
  /** A mapping carried over from other data, evaluated here as the `static` baseline. */
  readonly staticMapping?: PortableMapping;
  /** Dominated points kept for plotting. @default 5000 */
  readonly maxPoints?: number;
  readonly signal?: AbortSignal;
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

/** A mapping with its predicted objectives. */
export interface MappingPoint {
  /** Choice index per operator (in `operators` order). */
  readonly genome: Int32Array;
  /** Short form: `op:device` or `op:dev1 60% + dev2 40%`, comma-separated. */
  readonly label: string;
  /** Seconds (a stream: seconds per input). */
  readonly time: number;
  /** Joules (a stream: per input). */
  readonly energy: number;
  /** Peak bytes in the fullest memory of its own a device has (0 when only host-memory devices run it). */
  readonly memory: number;
  /** Makespan of one run, seconds. */
  readonly latency: number;
}

export interface BaselinePoint extends Partial<MappingPoint> {
  /** `cpu alone`, `gpu alone`, ..., `heft`, `static`. */
  readonly name: string;
  readonly feasible: boolean;
  /** Why it is missing or infeasible. */
  readonly reason?: string;
}

export interface Exploration {
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
  readonly search: { readonly strategy: string; readonly spaceSize: number; readonly evaluated: number; readonly exhaustive: boolean; readonly seconds: number };
  /** Set when no mapping satisfies the constraints: why, and the nearest miss. */
  readonly empty?: { readonly reason: string };
  /** The bound workload and its choices, for the executor and for re-planning. */
  readonly bound: BoundWorkload;
  readonly choices: readonly (readonly Choice[])[];
  /** The system and model it was planned with (the executor runs on this system). */
  readonly context: { readonly system: System; readonly model: CostModel };
}

/** A plan: the chosen mapping, what it is predicted to cost, and why. */
export interface Plan extends Exploration {
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

const EXPLORE_KEYS = [
  'system', 'model', 'objectives', 'deadline', 'energyBudget', 'exclude', 'search', 'exhaustiveLimit', 'budget', 'seed', 'params',
  'precision', 'staticMapping', 'maxPoints', 'signal', 'splits', 'maxSplit', 'splitRatios',
] as const;
const SCHEDULE_KEYS = [...EXPLORE_KEYS, 'policy', 'fixedMapping'] as const;

/** Resolve a workload argument: a Workload, a shipped name, or a definition object. */
export function resolveWorkload(fn: string, w: unknown): Workload {
  if (typeof w === 'string') return shippedWorkload(w);
  if (w !== null && typeof w === 'object' && 'definition' in w && 'order' in w) return w as Workload;
  if (w !== null && typeof w === 'object') return defineWorkload(w, '<object>');
  throw new InvalidArgumentError(`${fn}: workload must be a shipped name, a Workload or a definition object, got ${describe(w)}`);
}

interface Context {
  readonly bound: BoundWorkload;
  readonly system: System;
  readonly model: CostModel;
  readonly costs: ModelCostSource;
  readonly table: CostTable;
  readonly evaluator: Evaluator;
  readonly exploration: Exploration;
  readonly result: SearchResult;
}

/**
 * The Pareto front of a workload on its data, without choosing.
 * @throws {InvalidArgumentError} on a bad workload, data or option (misspelled names included).
 * @example
 * const ex = await explore('gcn', graph, { objectives: ['time', 'energy'] });
 * ex.front.map((p) => [p.time, p.energy, p.label]);
 */
export async function explore(workload: Workload | string | object, data: WorkloadData | readonly WorkloadData[], options: ExploreOptions = {}): Promise<Exploration> {
  return (await prepare('explore', workload, data, options, EXPLORE_KEYS)).exploration;
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
export async function schedule(workload: Workload | string | object, data: WorkloadData | readonly WorkloadData[], options: ScheduleOptions = {}): Promise<Plan> {
  const fn = 'schedule';
  checkOptions(fn, options, SCHEDULE_KEYS as unknown as (keyof ScheduleOptions & string)[]);
  const policy = checkPolicy(fn, options.policy ?? 'min-time', { deadline: options.deadline !== undefined, energyBudget: options.energyBudget !== undefined });
  const fixed = options.fixedMapping;
  const ctx = await prepare(fn, workload, data, fixed ? { ...options, staticMapping: fixed } : options, SCHEDULE_KEYS);
  const ex = ctx.exploration;
  let chosen: MappingPoint;
  if (fixed) {
    const kept = ex.baselines.find((b) => b.name === 'static');
    if (!kept?.genome || !kept.feasible) throw new InfeasibleError(`${fn}: the fixed mapping cannot run here: ${kept?.reason ?? 'it does not fit'}`);
    chosen = kept as MappingPoint;
  } else {
    if (ex.front.length === 0) throw new InfeasibleError(`${fn}: ${ex.empty?.reason ?? 'no mapping fits'}`);
    chosen = ex.front[pick(policy, ex.front)]!;
  }
  const predicted = ctx.evaluator.metrics(chosen.genome);
  const plan: Plan = {
    ...ex,
    policy: policyName(policy),
    policyRule: policy,
    chosen,
    mapping: portableMapping(ctx.bound, ctx.system, ctx.table.choices, chosen.genome),
    predicted,
    explanation: explain({ bound: ctx.bound, system: ctx.system, model: ctx.model, costs: ctx.costs, table: ctx.table, exploration: ex, chosen, predicted, policy }),
  };
  return plan;
}

async function prepare(
  fn: string,
  workloadArg: Workload | string | object,
  data: WorkloadData | readonly WorkloadData[],
  options: ExploreOptions,
  keys: readonly string[],
): Promise<Context> {
  checkOptions(fn, options, keys as (keyof ExploreOptions & string)[]);
  const workload = resolveWorkload(fn, workloadArg);
  const objectives = options.objectives ?? ['time', 'energy'];
  if (!Array.isArray(objectives) || objectives.length < 2 || objectives.length > 3 || new Set(objectives).size !== objectives.length) {
    throw new InvalidArgumentError(`${fn}: objectives must be 2 or 3 distinct names of ${OBJECTIVES.join(', ')}, got ${describe(objectives)}`);
  }
  for (const o of objectives) {
    if (!OBJECTIVES.includes(o)) {
      const hint = typeof o === 'string' ? suggest(o, OBJECTIVES) : undefined;
      throw new InvalidArgumentError(`${fn}: unknown objective ${describe(o)}` + (hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ` (objectives: ${OBJECTIVES.join(', ')})`));
    }
  }
  const constraints: Constraints = {
    ...(options.deadline !== undefined ? { deadline: checkNumber(fn, 'deadline', options.deadline, Number.MIN_VALUE) } : {}),
    ...(options.energyBudget !== undefined ? { energyBudget: checkNumber(fn, 'energyBudget', options.energyBudget, Number.MIN_VALUE) } : {}),
  };
  const seed = options.seed === undefined ? 1 : checkInt(fn, 'seed', options.seed, 0, 2 ** 32 - 1);
  const budget = options.budget === undefined ? 2000 : checkInt(fn, 'budget', options.budget, 1, 1e7);
  const exhaustiveLimit = options.exhaustiveLimit === undefined ? 1e5 : checkNumber(fn, 'exhaustiveLimit', options.exhaustiveLimit, 0, 2e6);
  const maxPoints = options.maxPoints === undefined ? 5000 : checkInt(fn, 'maxPoints', options.maxPoints, 0);
  if (options.maxSplit !== undefined) checkInt(fn, 'maxSplit', options.maxSplit, 1, 3);
  if (options.splitRatios !== undefined) {
    if (!Array.isArray(options.splitRatios) || options.splitRatios.some((r) => typeof r !== 'number' || !(r > 0 && r < 1))) {
      throw new InvalidArgumentError(`${fn}: splitRatios must be numbers strictly between 0 and 1, got ${describe(options.splitRatios)}`);
    }
  }
  if (options.system !== undefined && !(options.system instanceof System)) throw new InvalidArgumentError(`${fn}: system must be a System, got ${describe(options.system)}`);
  options.signal?.throwIfAborted();

  // The data: one input, or a stream of inputs (planned on its first).
  let first: WorkloadData;
  if (Array.isArray(data)) {
    if (!workload.stream) throw new InvalidArgumentError(`${fn}: ${workload.name} takes one input; pass a stream workload (streamOf or "stream:${workload.name}") for a sequence`);
    if (data.length === 0) throw new InvalidArgumentError(`${fn}: the stream of inputs is empty`);
    first = data[0] as WorkloadData;
  } else {
    first = data as WorkloadData;
  }
  const bound = bindWorkload(workload, first, {
    ...(options.params ? { params: options.params } : {}),
    ...(options.precision ? { precision: options.precision } : {}),
    seed,
  });

  const system = options.system ?? (await detectSystem());
  const model = options.model ?? (await loadCostModel(system));
  if (model.system !== system) throw new InvalidArgumentError(`${fn}: the model was built for system ${model.system.name}, not ${system.name}`);
  const exclude = options.exclude ?? [];
  if (!Array.isArray(exclude)) throw new InvalidArgumentError(`${fn}: exclude must be an array of device names, got ${describe(exclude)}`);
  for (const name of exclude) system.device(name); // throws with a suggestion for an unknown name
  const allowed = system.devices.flatMap((d, i) => (exclude.includes(d.name) ? [] : [i]));
  if (allowed.length === 0) throw new InfeasibleError(`${fn}: every device is excluded (${exclude.join(', ')})`);

  const costs = new ModelCostSource(bound, system, model);
  const choices = buildChoices(bound, system, allowed, options, (op, d) => costs.cost(op, d, 0, Math.max(op.units, 1)).seconds);
  choices.forEach((c, i) => {
    if (c.length === 0) {
      const op = bound.ops[i]!;
      throw new InfeasibleError(`${fn}: no allowed device can run ${op.id} (${op.kind}); allowed: ${allowed.map((d) => system.devices[d]!.name).join(', ')}`);
    }
  });
  const table = new CostTable(choices, bound.ops, costs);
  const evaluator = new Evaluator(bound, system, table, objectives, constraints);
  const cardinality = table.cardinality;
  const size = spaceSize(cardinality);

  const seeds: Int32Array[] = [];
  for (const d of allowed) {
    const g = singleDeviceGenome(choices, d);
    if (g) seeds.push(g);
  }
  const heft = heftGenome(bound, system, table);
  seeds.push(heft);
  // Greedy: each operator on the device (or split) fastest for it alone.
  seeds.push(Int32Array.from(choices.map((c, i) => {
    let best = 0;
    for (let j = 1; j < c.length; j++) if (choiceSeconds(table, i, j) < choiceSeconds(table, i, best)) best = j;
    return best;
  })));

  const searchName = options.search ?? 'auto';
  let strategy;
  if (searchName === 'auto') strategy = chooseStrategy(cardinality, exhaustiveLimit);
  else {
    strategy = STRATEGIES.get(searchName);
    if (!strategy) {
      const names = ['auto', ...STRATEGIES.keys()];
      const hint = typeof searchName === 'string' ? suggest(searchName, names) : undefined;
      throw new InvalidArgumentError(`${fn}: unknown search ${describe(searchName)}` + (hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ` (searches: ${names.join(', ')})`));
    }
  }
  const t0 = performance.now();
  const result = strategy.search(
    { cardinality, objectives: objectives.length as 2 | 3, evaluate: (g, out) => evaluator.evaluate(g, out), seeds },
    { seed, budget, ...(options.signal ? { signal: options.signal } : {}) },
  );
  const seconds = (performance.now() - t0) / 1000;

  const labels = (g: Int32Array): string => mappingLabel(bound, choices, g);
  const full = new Float64Array(4);
  const all4 = new Evaluator(bound, system, table, ['time', 'energy', 'memory', 'latency'], constraints);
  const pointOf = (g: Int32Array): MappingPoint => {
    all4.evaluate(g, full);
    return { genome: g, label: labels(g), time: full[0]!, energy: full[1]!, memory: full[2]!, latency: full[3]! };
  };
  const genomeAt = (i: number): Int32Array => result.genomes.slice(i * result.genes, (i + 1) * result.genes);
  const front = Array.from(result.front, (i) => pointOf(genomeAt(i)));
  const inFront = new Set(result.front);
  const dominatedIdx: number[] = [];
  let infeasible = 0;
  for (let i = 0; i < result.count; i++) {
    if (!result.feasible[i]) infeasible++;
    else if (!inFront.has(i)) dominatedIdx.push(i);
  }
  const stride = Math.max(1, Math.ceil(dominatedIdx.length / Math.max(1, maxPoints)));
  const dominated = maxPoints === 0 ? [] : dominatedIdx.filter((_, k) => k % stride === 0).map((i) => pointOf(genomeAt(i)));

  // Hypervolume against 1.1x the worst feasible value of each objective.
  const m = objectives.length;
  const reference = new Array<number>(m).fill(0);
  const ideal = new Array<number>(m).fill(Infinity);
  for (let i = 0; i < result.count; i++) {
    if (!result.feasible[i]) continue;
    for (let k = 0; k < m; k++) {
      reference[k] = Math.max(reference[k]!, result.values[i * m + k]! * 1.1);
      ideal[k] = Math.min(ideal[k]!, result.values[i * m + k]!);
    }
  }
  const hv = result.front.length ? hypervolume(result.values, m, result.front, reference) : 0;
  const box = reference.reduce((p, r, k) => p * (r - ideal[k]!), 1);

  const baselines: BaselinePoint[] = [];
  const baseline = (name: string, g: Int32Array | null, reason: string): void => {
    if (!g) {
      baselines.push({ name, feasible: false, reason });
      return;
    }
    const p = pointOf(g);
    const met = evaluator.metrics(g);
    baselines.push({ name, ...p, feasible: met.feasible, ...(met.feasible ? {} : { reason: met.violations.join('; ') }) });
  };
  for (const d of allowed) baseline(`${system.devices[d]!.name} alone`, singleDeviceGenome(choices, d), `${system.devices[d]!.name} cannot run every operator`);
  baseline('heft', heft, '');
  if (options.staticMapping) baseline('static', translateMapping(options.staticMapping, bound, system, choices), 'the static mapping names operators or devices this workload and system lack');

  let empty: { reason: string } | undefined;
  if (front.length === 0) {
    // The nearest miss: the fastest mapping evaluated, and what it breaks.
    let best = -1;
    for (let i = 0; i < result.count; i++) if (best < 0 || result.values[i * m]! < result.values[best * m]!) best = i;
    const why = best >= 0 ? evaluator.metrics(genomeAt(best)).violations.join('; ') : 'nothing was evaluated';
    empty = { reason: `no mapping of ${result.count} evaluated satisfies the constraints; the best by ${objectives[0]} breaks them: ${why}` };
  }

  const exploration: Exploration = {
    workload: workload.name,
    system: system.name,
    stream: workload.stream,
    objectives,
    constraints,
    modelled: true,
    devices: system.devices.map((d) => {
      const s = model.state(d);
      return { name: d.name, backend: d.backend, simulated: d.simulated, model: s.state === 'calibrated' ? `calibrated ${s.createdAt}${s.quick ? ' (quick)' : ''}` : `uncalibrated: ${s.reason}` };
    }),
    operators: bound.ops.map((op, i) => ({ id: op.id, kind: op.kind, choices: choices[i]!.map((c) => c.label) })),
    front,
    dominated,
    infeasible,
    hypervolume: { value: hv, normalised: box > 0 ? hv / box : 0, reference },
    baselines,
    search: { strategy: result.strategy, spaceSize: size, evaluated: result.count, exhaustive: result.exhaustive, seconds },
    ...(empty ? { empty } : {}),
    bound,
    choices,
    context: { system, model },
  };
  return { bound, system, model, costs, table, evaluator, exploration, result };
}

/** A mapping's short form, `op:choice` comma-separated, leaving out the operators `skip` marks. */
export function mappingLabel(bound: BoundWorkload, choices: readonly (readonly Choice[])[], genome: Int32Array, skip?: readonly boolean[]): string {
  return bound.ops.flatMap((op, i) => (skip?.[i] ? [] : [`${op.id}:${choices[i]![genome[i]!]!.label}`])).join(', ');
}

/** The time of choice `j` of operator `i` run alone: its slowest part. */
function choiceSeconds(table: CostTable, i: number, j: number): number {
  const g = table.choiceBase[i]! + j;
  let t = 0;
  for (let p = table.partBegin[g]!; p < table.partBegin[g]! + table.partCount[g]!; p++) t = Math.max(t, table.partSeconds[p]!);
  return t;
}
