// Running a stream: one plan applied to a sequence of inputs, one after another. Before each
// input the stream compares the input's structure with the one its current plan was made for,
// and plans again when it has moved away (a road network giving way to a power-law graph);
// otherwise the current mapping is kept, translated to the input. Within each input, runPlan
// still re-plans on drift, so a device that slows down is also left.

import type { CsrMatrix } from '../data/csr.js';
import { describe, InvalidArgumentError } from '../errors.js';
import { schedule, type Plan } from '../scheduler/schedule.js';
import { checkOptions } from '../validate.js';
import type { WorkloadData } from '../workloads/bind.js';
import { checkRunOptions } from './options.js';
import { runPlan, type RunPlanOptions, type RunResult } from './run.js';

export interface RunStreamOptions extends RunPlanOptions {
  /**
   * Plan again when any structural feature of an input (rows, nonzeros, mean and coefficient
   * of variation of the row lengths, BFS levels) differs from the current plan's input by more
   * than this factor (0.5: 50% up or a third down). `false` keeps the first plan throughout.
   * @default 0.5
   */
  readonly featureThreshold?: number | false;
}

export interface StreamReplan {
  /** Index of the input planned for. */
  readonly input: number;
  readonly reason: string;
  readonly from: string;
  readonly to: string;
}

export interface StreamResult {
  readonly results: readonly RunResult[];
  /** The plan each input ran with. */
  readonly plans: readonly Plan[];
  readonly replans: readonly StreamReplan[];
  /** Sum of the inputs' (composed, observed) makespans, seconds: the stream one input at a time. */
  readonly totalSeconds: number;
  /**
   * The stream's makespan with inputs overlapped (see {@link pipelinedMakespan}): each input's
   * observed timeline starts as soon as the devices and links it uses are free of the earlier
   * inputs, as a pipelined stream runs on a heterogeneous machine.
   */
  readonly pipelinedSeconds: number;
  /** When each input starts on the pipelined timeline, seconds. */
  readonly starts: readonly number[];
  /** Inputs per second with inputs overlapped (inputs / pipelinedSeconds). */
  readonly throughput: number;
}

const KEYS = ['signal', 'observers', 'replan', 'deviceLoss', 'recoverDeviceFailures', 'featureThreshold', 'bfsLevels', 'allowance'] as const;

/** The structural features the stream watches, of a plan's first sparse input. */
function signature(plan: Plan): Record<string, number> {
  const v = plan.problem.bound.values.find((x) => x.kind === 'sparse' && x.producer < 0)!;
  const a = v.pattern as CsrMatrix;
  const m = plan.problem.model.matrixFeatures(a);
  const sig: Record<string, number> = { rows: m.rows, nonzeros: m.nnz, 'mean row length': m.rowLength.mean, 'row-length cv': m.rowLength.cv };
  if (plan.problem.bound.ops.some((o) => o.kind === 'bfs' || o.kind === 'msbfs')) sig['bfs levels'] = plan.problem.model.graphFeatures(a).meanLevels;
  return sig;
}

/** The feature that moved most, as a factor (>= 1), with its name. */
function movement(a: Record<string, number>, b: Record<string, number>): { name: string; factor: number; from: number; to: number } {
  let worst = { name: '', factor: 1, from: 0, to: 0 };
  for (const [name, x] of Object.entries(a)) {
    const y = b[name] ?? x;
    const lo = Math.max(Math.min(x, y), 1e-9);
    const factor = Math.max(x, y, 1e-9) / lo;
    if (factor > worst.factor) worst = { name, factor, from: x, to: y };
  }
  return worst;
}

/**
 * Run `plan` (made for the stream's first input, e.g. by `schedule(streamOf(w), inputs)`) over
 * every input in order.
 * @throws as runPlan does; {InvalidArgumentError} for bad options or an empty stream.
 * @example
 * const plan = await schedule(workload('stream:bfs'), inputs, { system, model });
 * const s = await runStream(plan, inputs);
 * s.replans;   // [{ input: 10, reason: 'bfs levels moved 25.3x (...)', ... }]
 */
export async function runStream(plan: Plan, inputs: readonly WorkloadData[], options: RunStreamOptions = {}): Promise<StreamResult> {
  const fn = 'runStream';
  checkOptions(fn, options, KEYS as unknown as (keyof RunStreamOptions & string)[]);
  const { featureThreshold: _, ...runOptions } = options;
  // runPlan's checks (the plan, the signal, every run option), named as runStream's, not as the runPlan inside.
  checkRunOptions(fn, plan, runOptions);
  if (!Array.isArray(inputs) || inputs.length === 0) throw new InvalidArgumentError(`${fn}: inputs must be a non-empty array, got ${describe(inputs)}`);
  const threshold = options.featureThreshold ?? 0.5;
  if (threshold !== false && !(typeof threshold === 'number' && threshold > 0))
    throw new InvalidArgumentError(`${fn}: featureThreshold must be a number > 0 or false, got ${describe(threshold)}`);
  // The deadline and energy budget hold for every input; a backlog was the machine's state when
  // the first input was planned, not a constraint of the later ones.
  const { backlog: _backlog, ...constraints } = plan.constraints;
  const base = {
    system: plan.problem.system,
    model: plan.problem.model,
    objectives: plan.objectives,
    ...constraints,
    params: plan.problem.bound.params,
    precision: plan.problem.bound.precision,
  };
  const workload = plan.problem.bound.workload;
  const results: RunResult[] = [];
  const plans: Plan[] = [];
  const replans: StreamReplan[] = [];
  let current = plan;
  let currentSig = signature(plan);
  for (let k = 0; k < inputs.length; k++) {
    options.signal?.throwIfAborted();
    let p: Plan;
    if (k === 0 && firstMatrix(inputs[0]!) === firstMatrix(planData(plan))) {
      p = plan;
    } else {
      // Price the current mapping on this input, then decide whether to keep it.
      p = await schedule(workload, inputs[k]!, { ...base, fixedMapping: current.mapping });
      const sig = signature(p);
      const moved = movement(currentSig, sig);
      if (threshold !== false && moved.factor > 1 + threshold) {
        const fresh = await schedule(workload, inputs[k]!, { ...base, policy: plan.policyRule });
        replans.push({
          input: k,
          reason: `${moved.name} moved ${moved.factor.toFixed(2)}x (${moved.from.toPrecision(3)} -> ${moved.to.toPrecision(3)}), past ${(1 + threshold).toFixed(2)}x`,
          from: p.chosen.label,
          to: fresh.chosen.label,
        });
        p = fresh;
        current = fresh;
        currentSig = sig;
      }
    }
    plans.push(p);
    results.push(await runPlan(p, runOptions));
  }
  const totalSeconds = results.reduce((s, r) => s + r.makespan, 0);
  const { seconds: pipelinedSeconds, starts } = pipelinedMakespan(results);
  return { results, plans, replans, totalSeconds, pipelinedSeconds, starts, throughput: inputs.length / pipelinedSeconds };
}

/**
 * Compose a stream's runs into one pipelined timeline. Each input keeps its own composed timeline
 * (its pieces on their devices, its copies on their link directions) and is shifted as a block to
 * the earliest start, no earlier than the input before it, at which it begins on every device and
 * link direction it uses after the earlier inputs have finished there. Within an input nothing
 * moves, so its dependencies hold; no resource runs two pieces at once. Inputs could interleave
 * more tightly than whole blocks allow, so this is a feasible pipeline, not the best one.
 * @example
 * pipelinedMakespan(stream.results).seconds;   // <= stream.totalSeconds
 */
export function pipelinedMakespan(results: readonly Pick<RunResult, 'pieces' | 'transfers' | 'makespan'>[]): { seconds: number; starts: number[] } {
  if (!Array.isArray(results) || !results.every((r) => r !== null && typeof r === 'object' && Array.isArray(r.pieces) && Array.isArray(r.transfers))) {
    throw new InvalidArgumentError(`pipelinedMakespan: results must be an array of runPlan results, got ${describe(results)}`);
  }
  const busyUntil = new Map<string, number>();
  const starts: number[] = [];
  let previous = 0;
  let end = 0;
  for (const r of results) {
    const first = new Map<string, number>();
    const last = new Map<string, number>();
    const use = (resource: string, start: number, finish: number): void => {
      if (!(finish > start)) return;
      first.set(resource, Math.min(first.get(resource) ?? Infinity, start));
      last.set(resource, Math.max(last.get(resource) ?? -Infinity, finish));
    };
    for (const p of r.pieces) use(`device ${p.device}`, p.start, p.finish);
    for (const t of r.transfers) use(`link ${t.from} -> ${t.to}`, t.start, t.finish);
    let start = previous;
    for (const [resource, at] of first) start = Math.max(start, (busyUntil.get(resource) ?? 0) - at);
    for (const [resource, at] of last) busyUntil.set(resource, start + at);
    starts.push(start);
    previous = start;
    end = Math.max(end, start + r.makespan);
  }
  return { seconds: end, starts };
}

function planData(plan: Plan): WorkloadData {
  const v = plan.problem.bound.values.find((x) => x.kind === 'sparse' && x.producer < 0)!;
  return v.data as CsrMatrix;
}

function firstMatrix(d: WorkloadData): unknown {
  if (d !== null && typeof d === 'object' && 'rowPtr' in d) return d;
  return Object.values(d as Record<string, unknown>)[0];
}
