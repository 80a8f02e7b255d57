// Preparing a planning problem: the workload bound to its data, the system and the cost model,
// every way each operator may run (the mapping space) and what each way is predicted to cost.
// Everything after this (the search, the policy, re-planning, the oracle's enumeration) works on
// a PlanningProblem and never binds or prices anything again.

import { nextTurn } from '../next-turn.js';
import type { Precision } from '../data/dense.js';
import { CostModel } from '../cost/model.js';
import { loadCostModel } from '../cost/store.js';
import { detectSystem, System } from '../devices/system.js';
import { describe, InfeasibleError, InvalidArgumentError } from '../errors.js';
import { checkInt, checkNumber, checkOptions, checkSignal, suggest } from '../validate.js';
import { bindAs, type BoundWorkload, type WorkloadData } from '../workloads/bind.js';
import { defineWorkload, type Workload } from '../workloads/definition.js';
import { workload as shippedWorkload } from '../workloads/library.js';
import { ModelCostSource, type PlanningCosts } from './costs.js';
import { Evaluator, type Constraints, type Objective, OBJECTIVES } from './evaluate.js';
import { type FrontSearchSettings, checkSearchSettings } from './front.js';
import { DEFAULT_PROBE, Prober, type ProbeSettings } from './probe.js';
import { ProbedCostSource } from './probed-costs.js';
import { type Backlog, checkBacklog } from './backlog.js';
import { buildChoices } from './candidates.js';
import { canRun } from './space.js';
import { type Choice, CostTable, type SpaceOptions } from './space.js';

export interface PrepareOptions extends SpaceOptions {
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
  /**
   * Seconds of other work queued ahead on devices (by name) and link directions (`host->gpu`):
   * the plan starts each after its backlog and its makespan counts the wait, so a busy device
   * costs its queue. The shared service plans every job this way.
   */
  readonly backlog?: Backlog;
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
  readonly signal?: AbortSignal;
  /**
   * Probe this input on each device before trusting the model: each operator the devices run is
   * executed (sampled when large) and the model's figures scaled to what the device did, and a
   * chosen split's parts are probed and its shares re-balanced. `false` plans from the model alone.
   * @default true
   */
  readonly probe?: boolean | Partial<ProbeSettings>;
}

/**
 * The live side of a plan: the bound workload (with its data), the system and model it was
 * planned with, the mapping space and its predicted costs. Not serialisable; the plan's result
 * (front, chosen mapping, predictions) is.
 */
export interface PlanningProblem {
  readonly workload: Workload;
  readonly bound: BoundWorkload;
  readonly system: System;
  readonly model: CostModel;
  /** Devices (system indices) the mapping space may use: the system less the excluded ones. */
  readonly allowed: readonly number[];
  readonly objectives: readonly Objective[];
  readonly constraints: Constraints;
  /** How the front is searched, kept so that re-planning searches the same way. */
  readonly search: FrontSearchSettings;
  /** Whether and how far operators may be split (the oracle respects it too). */
  readonly space: SpaceOptions;
  /** What planning prices pieces with: the model's (and the rooflines') predictions, scaled by the probes when there were any. */
  readonly costs: PlanningCosts;
  /** The probes of this input, when planning probed (a chosen split's parts are probed through it). */
  readonly prober?: Prober;
  /** Every way each operator may run. */
  readonly choices: readonly (readonly Choice[])[];
  readonly table: CostTable;
  /** Evaluates mappings under the problem's objectives and constraints. */
  readonly evaluator: Evaluator;
}

/** Resolve a workload argument: a Workload, a shipped name, or a definition object. */
export function resolveWorkload(fn: string, w: unknown): Workload {
  if (typeof w === 'string') return shippedWorkload(w);
  if (w !== null && typeof w === 'object' && 'definition' in w && 'order' in w) return w as Workload;
  if (w !== null && typeof w === 'object') return defineWorkload(w, '<object>');
  throw new InvalidArgumentError(`${fn}: workload must be a shipped name, a Workload or a definition object, got ${describe(w)}`);
}

function checkProbe(fn: string, probe: unknown): ProbeSettings | undefined {
  if (probe === undefined || probe === true) return DEFAULT_PROBE;
  if (probe === false) return undefined;
  if (probe === null || typeof probe !== 'object' || Array.isArray(probe))
    throw new InvalidArgumentError(`${fn}: probe must be true, false or { maxEntries, repeats }, got ${describe(probe)}`);
  const o = checkOptions(`${fn}: probe`, probe as Partial<ProbeSettings>, ['maxEntries', 'repeats']);
  return {
    maxEntries: o.maxEntries === undefined ? DEFAULT_PROBE.maxEntries : checkInt(fn, 'probe.maxEntries', o.maxEntries, 1, 2 ** 40),
    repeats: o.repeats === undefined ? DEFAULT_PROBE.repeats : checkInt(fn, 'probe.repeats', o.repeats, 1, 100),
  };
}

/** Option names `prepare` reads; callers with more options add theirs. */
export const PREPARE_KEYS = [
  'system',
  'model',
  'objectives',
  'deadline',
  'energyBudget',
  'exclude',
  'backlog',
  'search',
  'exhaustiveLimit',
  'budget',
  'seed',
  'params',
  'precision',
  'signal',
  'splits',
  'maxSplit',
  'splitRatios',
  'probe',
] as const;

function checkObjectives(fn: string, objectives: unknown): readonly Objective[] {
  if (!Array.isArray(objectives) || objectives.length < 2 || objectives.length > 3 || new Set(objectives).size !== objectives.length) {
    throw new InvalidArgumentError(`${fn}: objectives must be 2 or 3 distinct names of ${OBJECTIVES.join(', ')}, got ${describe(objectives)}`);
  }
  for (const o of objectives) {
    if (!OBJECTIVES.includes(o)) {
      const hint = typeof o === 'string' ? suggest(o, OBJECTIVES) : undefined;
      throw new InvalidArgumentError(
        `${fn}: unknown objective ${describe(o)}` + (hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ` (objectives: ${OBJECTIVES.join(', ')})`),
      );
    }
  }
  return objectives as Objective[];
}

/**
 * Bind a workload to its data on a system, and price every way to run each operator.
 * @param keys option names the caller accepts (misspelled ones are refused with a suggestion).
 * @throws {InvalidArgumentError} on a bad workload, data or option.
 * @throws {InfeasibleError} when every device is excluded, or an operator has no allowed device.
 * @example
 * const problem = await prepare('explore', 'gcn', graph, { system, model }, PREPARE_KEYS);
 * problem.choices[0].map((c) => c.label);   // ['cpu', 'gpu', 'cpu 25% + gpu 75%', ...]
 */
export async function prepare(
  fn: string,
  workloadArg: Workload | string | object,
  data: WorkloadData | readonly WorkloadData[],
  options: PrepareOptions,
  keys: readonly string[] = PREPARE_KEYS,
): Promise<PlanningProblem> {
  checkOptions(fn, options, keys as (keyof PrepareOptions & string)[]);
  const workload = resolveWorkload(fn, workloadArg);
  const objectives = checkObjectives(fn, options.objectives ?? ['time', 'energy']);
  let constraints: Constraints = {
    ...(options.deadline !== undefined ? { deadline: checkNumber(fn, 'deadline', options.deadline, Number.MIN_VALUE) } : {}),
    ...(options.energyBudget !== undefined ? { energyBudget: checkNumber(fn, 'energyBudget', options.energyBudget, Number.MIN_VALUE) } : {}),
  };
  const search = checkSearchSettings(fn, options);
  if (options.maxSplit !== undefined) checkInt(fn, 'maxSplit', options.maxSplit, 1, 3);
  if (options.splitRatios !== undefined) {
    if (!Array.isArray(options.splitRatios) || options.splitRatios.some((r) => typeof r !== 'number' || !(r > 0 && r < 1))) {
      throw new InvalidArgumentError(`${fn}: splitRatios must be numbers strictly between 0 and 1, got ${describe(options.splitRatios)}`);
    }
  }
  if (options.system !== undefined && !(options.system instanceof System))
    throw new InvalidArgumentError(`${fn}: system must be a System, got ${describe(options.system)}`);
  if (options.model !== undefined && !(options.model instanceof CostModel))
    throw new InvalidArgumentError(`${fn}: model must be a CostModel (loadCostModel(system)), got ${describe(options.model)}`);
  checkSignal(fn, 'signal', options.signal)?.throwIfAborted();

  // The data: one input, or a stream of inputs (planned on its first).
  let first: WorkloadData;
  if (Array.isArray(data)) {
    if (!workload.stream)
      throw new InvalidArgumentError(`${fn}: ${workload.name} takes one input; pass a stream workload (streamOf or "stream:${workload.name}") for a sequence`);
    if (data.length === 0) throw new InvalidArgumentError(`${fn}: the stream of inputs is empty`);
    first = data[0] as WorkloadData;
  } else {
    first = data as WorkloadData;
  }
  const bound = bindAs(fn, workload, first, {
    ...(options.params ? { params: options.params } : {}),
    ...(options.precision ? { precision: options.precision } : {}),
    seed: search.seed,
  });
  await nextTurn(options.signal);

  const system = options.system ?? (await detectSystem());
  const model = options.model ?? (await loadCostModel(system));
  if (model.system !== system) throw new InvalidArgumentError(`${fn}: the model was built for system ${model.system.name}, not ${system.name}`);
  const exclude = options.exclude ?? [];
  if (!Array.isArray(exclude)) throw new InvalidArgumentError(`${fn}: exclude must be an array of device names, got ${describe(exclude)}`);
  for (const name of exclude) {
    if (!system.devices.some((d) => d.name === name))
      throw new InvalidArgumentError(`${fn}: exclude names no device of system ${system.name}: ${describe(name)}${system.nameHint(name)}`);
  }
  if (options.backlog !== undefined) constraints = { ...constraints, backlog: checkBacklog(fn, options.backlog, system) };
  const allowed = system.devices.flatMap((d, i) => (exclude.includes(d.name) ? [] : [i]));
  if (allowed.length === 0) throw new InfeasibleError(`${fn}: every device is excluded (${exclude.join(', ')})`);

  const predictions = new ModelCostSource(bound, system, model);
  const probe = checkProbe(fn, options.probe);
  let costs: PlanningCosts = predictions;
  let prober: Prober | undefined;
  if (probe) {
    const probed = new ProbedCostSource(predictions);
    prober = new Prober(bound, system, probed, probe, options.signal);
    await prober.probeAll(allowed, (op, d) => canRun(system.devices[d]!, op, bound));
    costs = probed;
  }
  const choices = buildChoices(
    bound,
    system,
    allowed,
    options,
    (op, d) => costs.cost(op, d, 0, Math.max(op.units, 1)).seconds,
    (op, d, b, e) => costs.cost(op, d, b, e).seconds,
  );
  choices.forEach((c, i) => {
    if (c.length === 0) {
      const op = bound.ops[i]!;
      throw new InfeasibleError(`${fn}: no allowed device can run ${op.id} (${op.kind}); allowed: ${allowed.map((d) => system.devices[d]!.name).join(', ')}`);
    }
  });
  await nextTurn(options.signal);
  const table = new CostTable(choices, bound.ops, costs);
  const evaluator = new Evaluator(bound, system, table, objectives, constraints);
  const space: SpaceOptions = {
    ...(options.splits !== undefined ? { splits: options.splits } : {}),
    ...(options.maxSplit !== undefined ? { maxSplit: options.maxSplit } : {}),
  };
  return { workload, bound, system, model, allowed, objectives, constraints, search, space, costs, ...(prober ? { prober } : {}), choices, table, evaluator };
}
