// Carrying out a plan: every piece of every operator runs on its device (real devices for real,
// simulators simulating), operators start as soon as their operands exist, a device runs its
// pieces one at a time, split operators are joined, and the run's timeline is composed from the
// observed durations by the same list schedule that made the prediction, so predicted and
// observed line up part for part. Observers see each piece as it ends and the whole run.

import { CsrMatrix } from '../data/csr.js';
import { DenseMatrix } from '../data/dense.js';
import type { Device, EnergySource, OperatorKind } from '../devices/device.js';
import { describe, ExecutionError, InvalidArgumentError } from '../errors.js';
import { ModelCostSource } from '../scheduler/costs.js';
import { Evaluator, type Metrics, type TransferEntry } from '../scheduler/evaluate.js';
import { PieceMap } from '../scheduler/piece-map.js';
import { type PieceResult, type PieceSource, runPiece } from './piece.js';
import { mappingLabel, type Plan } from '../scheduler/schedule.js';
import { type CostSource, CostTable } from '../scheduler/space.js';
import { checkOptions } from '../validate.js';
import type { BoundOp } from '../workloads/bind.js';
import { combineReduce, concatCsrRows, concatRows, finishReduce } from '../workloads/dense-kernels.js';
import { type BfsStepRecord, resumableBfsDevices, steppedBfs, steppingPays } from './bfs-steps.js';
import { remainingSeconds, replanRemaining, type Scale, scaledCosts } from './replan.js';
import type { Value } from '../workloads/reference.js';

/** Operators a device runs with its own kernels on a sparse operand (the ones worth keeping resident). */
const NATIVE_KINDS: ReadonlySet<string> = new Set(['spmm', 'spmv', 'bfs', 'msbfs']);
/** Operators the cost model predicts from features (and learns from); the rest are rooflines. */
const MODEL_KINDS: ReadonlySet<string> = NATIVE_KINDS;

/** One piece of one operator, as it ran. */
export interface PieceRecord {
  readonly op: string;
  readonly kind: string;
  readonly device: string;
  /** Units (rows or sources) `[begin, end)` of the operator. */
  readonly begin: number;
  readonly end: number;
  readonly predictedSeconds: number;
  readonly observedSeconds: number;
  readonly predictedJoules: number;
  readonly observedJoules: number;
  /** `measured` (a clock), `simulated` (a simulator) or `roofline` (modelled: no simulator for it). */
  readonly source: PieceSource;
  readonly energySource: EnergySource;
  /**
   * A single-source BFS re-decided level by level: its groups of levels, each on the device
   * chosen from the actual frontier. The piece keeps its planned device's place in the
   * timeline, for the steps' time and the modelled moves between memory spaces together.
   */
  readonly steps?: readonly BfsStepRecord[];
}

/** A piece placed on the run's composed timeline (seconds from the start of the run). */
export interface TimedPieceRecord extends PieceRecord {
  readonly start: number;
  readonly finish: number;
}

/** A re-plan of the remaining operators, and why. */
export interface ReplanRecord {
  /** The operator whose completion triggered it. */
  readonly after: string;
  /** Seconds since the run started (host wall clock). */
  readonly at: number;
  readonly reason: string;
  /** Predicted seconds of the remaining work when it was planned, and now. */
  readonly plannedSeconds: number;
  readonly nowSeconds: number;
  /** The remaining operators' choices before and after (`op:choice`, comma-separated). */
  readonly from: string;
  readonly to: string;
}

export interface RunResult {
  /** The workload's outputs by operator id. */
  readonly outputs: Readonly<Record<string, Value>>;
  readonly pieces: readonly TimedPieceRecord[];
  readonly transfers: readonly TransferEntry[];
  /** Makespan and energy composed from the observed costs. */
  readonly makespan: number;
  readonly energy: number;
  /** Share of the pieces' seconds read off a clock (the rest simulated or modelled). */
  readonly measuredShare: number;
  /** What the plan predicted, for comparison. */
  readonly predicted: Metrics;
  /** Host wall time of the whole run, seconds. */
  readonly wallSeconds: number;
  /** The mapping that ran (after any re-plans), in the plan's short form. */
  readonly mapping: string;
  readonly replans: readonly ReplanRecord[];
}

/** Plugged into a run; never changes it. Hooks must not throw: an error they throw rejects the run. */
export interface ExecutionObserver {
  /** After each piece, in completion order. */
  onPiece?(record: PieceRecord): void;
  /** When the remaining operators were re-planned. */
  onReplan?(record: ReplanRecord): void;
  /** Once, with the whole result, before `runPlan` resolves. */
  onRunEnd?(result: RunResult): void;
}

export interface RunPlanOptions {
  /** Stops at the next piece boundary: pieces not started are not started, and the run rejects. */
  readonly signal?: AbortSignal;
  readonly observers?: readonly ExecutionObserver[];
  /**
   * Re-plan the operators not yet started when the predicted time of the remaining work, with
   * the model corrected by what the run observed, differs from its prediction when planned by
   * more than `threshold`. The run feeds native kernels' observations to the plan's model
   * (`CostModel.observe`) while it does so. `false` runs the plan as made.
   * @default { threshold: 0.25 }
   */
  readonly replan?: false | { readonly threshold?: number };
  /**
   * Withdraw devices during the run (`deviceLoss.withdraw('gpu')`): their pieces not yet done,
   * and every operator not yet started, are re-planned onto the other devices.
   */
  readonly deviceLoss?: DeviceLoss;
  /**
   * Treat a device whose piece fails as lost and re-plan around it, instead of failing the run.
   * Invalid-argument errors always fail the run. @default true
   */
  readonly recoverDeviceFailures?: boolean;
  /**
   * Re-decide single-source BFS level by level from the actual frontier: the search stops every
   * few levels and goes on on the device predicted cheapest for the next ones, moves included.
   * It needs two or more devices that can resume a search (`capabilities.bfsResume`), and is
   * used only where the graph's typical frontier profile predicts a gain of 10% or more over the
   * planned device alone. The choice minimises time: plans led by energy (`min-energy`,
   * `frugal-within-deadline`, weights favouring energy) or with an energy budget run each search
   * in one call. @default true
   */
  readonly bfsLevels?: boolean;
}

/**
 * The event of devices leaving a running plan (unplugged, reclaimed, failed health check).
 * @example
 * const loss = new DeviceLoss();
 * const run = runPlan(plan, { deviceLoss: loss });
 * loss.withdraw('gpu');   // the rest of the run avoids it
 */
export class DeviceLoss {
  readonly withdrawn = new Set<string>();
  withdraw(device: string): void {
    if (typeof device !== 'string') throw new InvalidArgumentError(`DeviceLoss.withdraw: device must be a device name, got ${describe(device)}`);
    this.withdrawn.add(device);
  }
}

/** A device became unavailable under a piece. */
class DeviceLostError extends Error {
  constructor(
    readonly deviceIndex: number,
    readonly device: string,
    readonly why: string,
    cause?: unknown,
  ) {
    super(`device ${device} lost (${why})`, { cause });
  }
}

const KEYS = ['signal', 'observers', 'replan', 'deviceLoss', 'recoverDeviceFailures', 'bfsLevels'] as const;

/**
 * The evaluator that composes a run's observed timeline (the plan's list schedule over the
 * observed costs), kept per plan and mapping: its structure (parts, bytes, routes) depends only on
 * them, so a later run of the same mapping only writes its own costs into the table. Building it
 * is most of what a run costs beyond its kernels on small operators.
 */
const timelines = new WeakMap<Plan, Map<string, { table: CostTable; evaluator: Evaluator; label: string }>>();
function observedTimeline(plan: Plan, genome: Int32Array, source: CostSource): { evaluator: Evaluator; label: string } {
  const { bound, choices } = plan;
  let byMapping = timelines.get(plan);
  if (!byMapping) timelines.set(plan, (byMapping = new Map()));
  const key = genome.join(',');
  const cached = byMapping.get(key);
  if (!cached) {
    const table = new CostTable(choices.map((c, i) => [c[genome[i]!]!]), bound.ops, source);
    const entry = { table, evaluator: new Evaluator(bound, plan.context.system, table, ['time', 'energy']), label: mappingLabel(bound, choices, genome) };
    byMapping.set(key, entry);
    return entry;
  }
  // Same parts in the same order as the table was built with: one choice per operator.
  let p = 0;
  bound.ops.forEach((op, i) => {
    for (const part of choices[i]![genome[i]!]!.parts) {
      const c = source.cost(op, part.device, part.begin, part.end);
      cached.table.partSeconds[p] = c.seconds;
      cached.table.partJoules[p] = c.joules;
      p++;
    }
  });
  return cached;
}

/**
 * Run a plan on its system with the data it was made for.
 * @throws {ExecutionError} naming the operator and device when a piece fails (no partial result
 *   is returned); the signal's reason when aborted; {InvalidArgumentError} for bad options.
 * @example
 * const plan = await schedule('gcn', graph, { system, model });
 * const result = await runPlan(plan, { observers: [trace] });
 * result.outputs['agg2'];   // DenseMatrix, equal to the reference
 */
export async function runPlan(plan: Plan, options: RunPlanOptions = {}): Promise<RunResult> {
  const fn = 'runPlan';
  checkOptions(fn, options, KEYS as unknown as (keyof RunPlanOptions & string)[]);
  if (plan === null || typeof plan !== 'object' || !plan.bound || !plan.chosen) throw new InvalidArgumentError(`${fn}: plan must come from schedule(), got ${describe(plan)}`);
  if (options === null || typeof options !== 'object' || Array.isArray(options)) throw new InvalidArgumentError(`${fn}: options must be an object, got ${describe(options)}`);
  const observers = options.observers ?? [];
  if (!Array.isArray(observers)) throw new InvalidArgumentError(`${fn}: observers must be an array, got ${describe(observers)}`);
  observers.forEach((o: unknown, i) => {
    if (o === null || typeof o !== 'object') throw new InvalidArgumentError(`${fn}: observers[${i}] must be an object, got ${describe(o)}`);
    for (const hook of ['onPiece', 'onReplan', 'onRunEnd'] as const) {
      const f = (o as Record<string, unknown>)[hook];
      if (f !== undefined && typeof f !== 'function') throw new InvalidArgumentError(`${fn}: observers[${i}].${hook} must be a function, got ${describe(f)}`);
    }
  });
  const signal = options.signal;
  if (signal !== undefined && !(signal instanceof AbortSignal)) throw new InvalidArgumentError(`${fn}: signal must be an AbortSignal, got ${describe(signal)}`);
  signal?.throwIfAborted();
  const replan = options.replan ?? {};
  if (replan !== false && (replan === null || typeof replan !== 'object')) throw new InvalidArgumentError(`${fn}: replan must be false or { threshold }, got ${describe(replan)}`);
  const threshold = replan === false ? Infinity : replan.threshold ?? 0.25;
  if (typeof threshold !== 'number' || !(threshold > 0)) throw new InvalidArgumentError(`${fn}: replan.threshold must be a number > 0, got ${describe(threshold)}`);
  if (options.deviceLoss !== undefined && !(options.deviceLoss instanceof DeviceLoss)) throw new InvalidArgumentError(`${fn}: deviceLoss must be a DeviceLoss, got ${describe(options.deviceLoss)}`);
  const recoverable = options.recoverDeviceFailures ?? true;
  if (typeof recoverable !== 'boolean') throw new InvalidArgumentError(`${fn}: recoverDeviceFailures must be true or false, got ${describe(recoverable)}`);
  const bfsLevels = options.bfsLevels ?? true;
  if (typeof bfsLevels !== 'boolean') throw new InvalidArgumentError(`${fn}: bfsLevels must be true or false, got ${describe(bfsLevels)}`);
  const { bound, choices, chosen } = plan;
  const system = plan.context.system;
  const model = plan.context.model;
  // The level-by-level choice minimises time, so it serves plans led by time; a plan led by
  // energy, or bound by an energy budget, runs its searches in one call as planned.
  const rule = plan.policyRule;
  const timeLed = rule === 'min-time' || rule === 'min-edp' || (typeof rule === 'object' && rule !== null && (rule.weights.time ?? 0) > (rule.weights.energy ?? 0));
  const bfsDevices = bfsLevels && timeLed && plan.constraints.energyBudget === undefined ? resumableBfsDevices(system) : [];
  // Numeric keys for (operator kind, device) pairs: kindKey(kind) * D + device.
  const D = system.devices.length;
  const kinds = new Map<string, number>();
  const kindKey = (kind: string): number => {
    let k = kinds.get(kind);
    if (k === undefined) kinds.set(kind, (k = kinds.size));
    return k;
  };
  // The choices in force: fixed for an operator once it starts, revised for the rest by re-plans.
  const genome = Int32Array.from(chosen.genome);
  const started = bound.ops.map(() => false);
  // Operators not started yet, and those of them with more than one choice (kept as counts: the
  // drift check after every operator must not scan the plan).
  let unstarted = bound.ops.length;
  let openChoices = choices.filter((c) => c.length > 1).length;
  const done = bound.ops.map(() => false);
  const replans: ReplanRecord[] = [];
  const labelOf = (g: Int32Array, skip?: readonly boolean[]): string => mappingLabel(bound, choices, g, skip);
  // What each piece was predicted to cost when it was (re)planned: the yardstick for drift and
  // the `predicted` figures of the records.
  const piecePredicted = new PieceMap<{ seconds: number; joules: number }>(bound.ops.length);
  // The model's predictions as the run starts, for every piece of every choice (frozen: the
  // model keeps learning while the run goes on, and the run's own corrections go on top).
  const base = new ModelCostSource(bound, system, model);
  // The model's online-correction factors as the run starts, per (kind, device) key: the base
  // predictions carry them, and the model learns from each piece against its prediction
  // without them (the uncorrected one), so the run never predicts a piece twice.
  const startFactors = new Map<number, readonly [number, number]>();
  system.devices.forEach((device, d) => {
    for (const kind of device.capabilities.operators) startFactors.set(kindKey(kind) * D + d, model.correctionFactors(device, kind));
  });
  bound.ops.forEach((op, i) => {
    for (const ch of choices[i]!) for (const part of ch.parts) base.cost(op, part.device, part.begin, part.end);
  });
  const snapshot = (scale?: Scale): void => {
    const costs = scale ? scaledCosts(base, scale) : base;
    bound.ops.forEach((op, i) => {
      if (started[i]) return;
      for (const part of choices[i]![genome[i]!]!.parts) piecePredicted.set(i, part.device, part.begin, part.end, costs.cost(op, part.device, part.begin, part.end));
    });
  };
  // The drift check after every operator compares the remaining work as planned with the same
  // work under the run's observed scales. Both are kept as running sums, per (kind, device) for
  // the scaled one, so the check costs a few additions, not a pass over the plan: subtracted as
  // operators start, rebuilt when a re-plan changes the mapping.
  let plannedLeftSum = 0;
  // Per (operator kind, device): kindKey(kind) * devices + device.
  let baseLeft = new Map<number, number>();
  const rebuildLeft = (): void => {
    plannedLeftSum = 0;
    baseLeft = new Map();
    bound.ops.forEach((op, i) => {
      if (!started[i]) leave(i, op, 1);
    });
  };
  /** Add (sign 1) or take away (sign -1) operator i's pieces from the remaining sums. */
  const leave = (i: number, op: BoundOp, sign: 1 | -1): void => {
    for (const part of choices[i]![genome[i]!]!.parts) {
      const b = base.cost(op, part.device, part.begin, part.end).seconds;
      const k = kindKey(op.kind) * D + part.device;
      baseLeft.set(k, (baseLeft.get(k) ?? 0) + sign * b);
      plannedLeftSum += sign * (piecePredicted.get(i, part.device, part.begin, part.end)?.seconds ?? b);
    }
  };
  const snapshotAll = (scale?: Scale): void => {
    snapshot(scale);
    rebuildLeft();
  };
  snapshotAll();
  const plannedRemaining = (): number => {
    let sum = 0;
    bound.ops.forEach((_, i) => {
      if (started[i]) return;
      for (const part of choices[i]![genome[i]!]!.parts) sum += (piecePredicted.get(i, part.device, part.begin, part.end) ?? base.cost(bound.ops[i]!, part.device, part.begin, part.end)).seconds;
    });
    return sum;
  };
  const t0 = performance.now();


  const values: (Value | undefined)[] = bound.values.map((v) => v.data as Value | undefined);
  const observed = new PieceMap<PieceResult>(bound.ops.length);
  const records: PieceRecord[] = [];
  /** The record of each piece that ran (the observed timeline looks pieces up by operator, device and range). */
  const recordByKey = new PieceMap<PieceRecord>(bound.ops.length);
  // One piece at a time per device, in the order they become ready; a piece for an idle device
  // starts at once instead of behind a resolved promise.
  const queues = new Map<number, Promise<unknown>>();
  const queued = new Map<number, number>();
  const onDevice = <T>(d: number, work: () => Promise<T>): Promise<T> => {
    const ahead = queued.get(d) ?? 0;
    queued.set(d, ahead + 1);
    const run = async (): Promise<T> => {
      try {
        return await work();
      } finally {
        queued.set(d, queued.get(d)! - 1);
      }
    };
    // The next piece on the device starts when this one settles, whether it succeeded or not.
    const next = ahead === 0 ? run() : queues.get(d)!.then(run, run);
    queues.set(d, next);
    return next;
  };

  // After the first failure no new piece starts: the run is lost, and its remaining work with it.
  let failure: unknown;
  const finished: Promise<void>[] = [];
  /** Devices lost during this run: withdrawn through `deviceLoss`, or failed while running a piece. */
  const lost = new Set<number>();
  const isLost = (d: number): boolean => lost.has(d) || (options.deviceLoss?.withdrawn.has(system.devices[d]!.name) ?? false);

  const runOp = async (i: number): Promise<void> => {
    const op = bound.ops[i]!;
    // Wait only for producers still running (each await is a trip through the microtask queue).
    let pending: number[] | undefined;
    for (const v of op.operands) {
      const p = bound.values[v]!.producer;
      if (p >= 0 && !done[p]) (pending ??= []).push(p);
    }
    if (pending) await (pending.length === 1 ? finished[pending[0]!]! : Promise.all(pending.map((p) => finished[p]!)));
    const x = op.operands.map((v) => values[v]!);
    for (;;) {
      if (!started[i]) {
        leave(i, op, -1);
        if (choices[i]!.length > 1) openChoices--;
        unstarted--;
      }
      started[i] = true;
      const parts = choices[i]![genome[i]!]!.parts;
      let results: PieceResult[] | undefined;
      let reason: unknown;
      if (parts.length === 1) {
        try {
          results = [await onDevice(parts[0]!.device, () => runOne(i, op, x, parts[0]!))];
        } catch (err) {
          reason = err;
        }
      } else {
        const settled = await Promise.allSettled(parts.map((part) => onDevice(part.device, () => runOne(i, op, x, part))));
        const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
        if (failed) reason = failed.reason;
        else results = settled.map((r) => (r as PromiseFulfilledResult<PieceResult>).value);
      }
      if (results) {
        // One piece (most operators): its output is the operator's, reductions aside.
        values[op.output] =
          parts.length === 1 && op.kind !== 'reduce'
            ? results[0]!.output
            : join(op, parts.map((p) => [p.begin, p.end] as const), results.map((r) => r.output), bound.values[op.output]!);
        done[i] = true;
        if (replan !== false) checkDrift(i, parts, results);
        return;
      }
      const e = reason;
      if (signal?.aborted || failure !== undefined || !(e instanceof DeviceLostError)) throw (failure ??= e);
      // The device is gone: this operator and every one not yet started go to the others.
      lost.add(e.deviceIndex);
      started[i] = false;
      if (choices[i]!.length > 1) openChoices++;
      unstarted++;
      const next = replanRemaining(plan, scaledCosts(base, scale), genome, started, done, (d) => !isLost(d));
      if (!next) {
        throw (failure ??= new ExecutionError(op.id, e.device, `${fn}: operator ${op.id} (${op.kind}): device ${e.device} was lost and no remaining device can take the rest of the plan`, { cause: e.cause }));
      }
      const record: ReplanRecord = {
        after: op.id,
        at: (performance.now() - t0) / 1000,
        reason: `device ${e.device} lost while running ${op.id} (${e.why}); the remaining operators move to the other devices`,
        plannedSeconds: plannedRemaining(),
        nowSeconds: remainingSeconds(bound, plan, scaledCosts(base, scale), next, started),
        from: labelOf(genome, started),
        to: labelOf(next, started),
      };
      genome.set(next);
      replans.push(record);
      for (const o of observers) o.onReplan?.(record);
      snapshotAll(scale);
    }
  };

  // Sparse operands kept on devices with memory of their own (a CUDA GPU) for the whole run:
  // prefetched at their first reader there, so later operators on that device read them in
  // place instead of copying them again, and released when the run ends. Each promise says
  // whether the prefetch took (a failed one costs nothing: the operator copies as usual).
  const resident = new Map<Device, Map<ArrayBufferView, Promise<boolean>>>();
  const makeResident = (device: Device, op: BoundOp, x: readonly Value[]): Promise<unknown> | undefined => {
    if (!device.prefetch || device.memorySpace === 'host' || !NATIVE_KINDS.has(op.kind)) return undefined;
    const m = x[0];
    if (!(m instanceof CsrMatrix)) return undefined;
    let held = resident.get(device);
    if (!held) resident.set(device, (held = new Map()));
    const fresh: ArrayBufferView[] = [];
    const waits: Promise<boolean>[] = [];
    for (const b of [m.colIdx, m.values]) {
      if (!b || b.byteLength === 0) continue;
      const w = held.get(b);
      if (w) waits.push(w);
      else if (!fresh.includes(b)) fresh.push(b);
    }
    if (fresh.length > 0) {
      const p = device.prefetch(fresh, signal ? { signal } : {}).then(() => true, () => false);
      for (const b of fresh) held.set(b, p);
      waits.push(p);
    }
    return waits.length > 0 ? Promise.all(waits) : undefined;
  };
  const releaseResident = async (): Promise<void> => {
    for (const [device, held] of resident) {
      const took: ArrayBufferView[] = [];
      for (const [b, p] of held) if (await p) took.push(b);
      if (took.length > 0) await device.release?.(took).catch(() => undefined);
    }
  };

  /** One piece on its device, recorded; a lost device becomes a DeviceLostError, anything else an ExecutionError. */
  const runOne = async (i: number, op: BoundOp, x: readonly Value[], part: { device: number; begin: number; end: number }): Promise<PieceResult> => {
    signal?.throwIfAborted();
    if (failure !== undefined) throw failure;
    const device = system.devices[part.device]!;
    if (isLost(part.device)) throw new DeviceLostError(part.device, device.name, 'withdrawn');
    let r: PieceResult & { steps?: readonly BfsStepRecord[] };
    try {
      const wait = makeResident(device, op, x);
      if (wait) await wait;
      const stepped = op.kind === 'bfs' && bfsDevices.length > 1 ? await runStepped(op, x, part.device) : undefined;
      r = stepped ?? (await runPiece(bound, op, device, x, part.begin, part.end, signal));
    } catch (cause) {
      if (signal?.aborted) throw signal.reason;
      if (isLost(part.device)) throw new DeviceLostError(part.device, device.name, 'withdrawn', cause);
      if (recoverable && !(cause instanceof InvalidArgumentError)) {
        throw new DeviceLostError(part.device, device.name, `failed: ${cause instanceof Error ? cause.message : String(cause)}`, cause);
      }
      throw new ExecutionError(op.id, device.name, `${fn}: operator ${op.id} (${op.kind}) on ${device.name}, units [${part.begin}, ${part.end}): ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    }
    observed.set(i, part.device, part.begin, part.end, r);
    const p = piecePredicted.get(i, part.device, part.begin, part.end) ?? base.cost(op, part.device, part.begin, part.end);
    const rec: PieceRecord = {
      op: op.id, kind: op.kind, device: device.name, begin: part.begin, end: part.end,
      predictedSeconds: p.seconds, observedSeconds: r.seconds, predictedJoules: p.joules, observedJoules: r.joules,
      source: r.source, energySource: r.energySource, ...(r.steps ? { steps: r.steps } : {}),
    };
    records.push(rec);
    recordByKey.set(i, part.device, part.begin, part.end, rec);
    for (const o of observers) o.onPiece?.(rec);
    return r;
  };

  /**
   * A single-source BFS on a device that can hand it on, where stepping is predicted to pay:
   * run it level group by level group (see bfs-steps.ts). Undefined when it runs as one call.
   */
  const runStepped = async (op: BoundOp, x: readonly Value[], planned: number): Promise<(PieceResult & { steps: readonly BfsStepRecord[] }) | undefined> => {
    if (op.kind !== 'bfs' || bfsDevices.length < 2 || !bfsDevices.includes(planned)) return undefined;
    const graph = x[0];
    if (!(graph instanceof CsrMatrix) || graph.rows !== graph.cols || op.source === undefined) return undefined;
    const ctx = {
      system, model, graph, source: op.source, planned,
      usable: (d: number) => !isLost(d),
      scale: (d: number) => scale('bfs', d),
      ...(signal ? { signal } : {}),
      onStepError: (d: number, err: unknown): boolean => {
        if (!recoverable || err instanceof InvalidArgumentError) return false;
        lost.add(d);
        return true;
      },
    };
    if (bfsDevices.filter((d) => !isLost(d)).length < 2 || !steppingPays(ctx, bfsDevices).pays) return undefined;
    const r = await steppedBfs(ctx, bfsDevices);
    return { output: r.depth, seconds: r.seconds, joules: r.joules, source: r.source, energySource: r.energySource, steps: r.steps };
  };

  // Observed / predicted time per (operator kind, device) in this run: the median, so one
  // outlier among several pieces does not move it.
  // Each list is kept sorted (insertion), so the median is a lookup.
  const ratios = new Map<number, number[]>();
  const medianOf = (k: number): number => {
    const r = ratios.get(k);
    return r && r.length > 0 ? r[r.length >> 1]! : 1;
  };
  const scale: Scale = (kind, d) => medianOf(kindKey(kind) * D + d);
  const addRatio = (k: number, v: number): void => {
    const list = ratios.get(k) ?? [];
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]! <= v) lo = mid + 1;
      else hi = mid;
    }
    list.splice(lo, 0, v);
    ratios.set(k, list);
  };
  const checkDrift = (i: number, parts: readonly { device: number; begin: number; end: number }[], results: readonly PieceResult[]): void => {
    const op = bound.ops[i]!;
    // The model learns from native kernels, slowly and robustly (its online correction), shown
    // its uncorrected predictions (roofline-priced pieces teach it nothing).
    // A BFS whose levels ran on other devices than its planned one says nothing about it alone.
    const movedOff = (j: number): boolean => {
      const st = (results[j] as { steps?: readonly BfsStepRecord[] }).steps;
      return st !== undefined && st.some((s) => s.device !== system.devices[parts[j]!.device]!.name);
    };
    parts.forEach((part, j) => {
      const r = results[j]!;
      if (r.source === 'roofline' || movedOff(j)) return;
      const f = startFactors.get(kindKey(op.kind) * D + part.device);
      if (!f || !MODEL_KINDS.has(op.kind)) return;
      const p = base.cost(op, part.device, part.begin, part.end);
      model.observeUncorrected(system.devices[part.device]!, op.kind as OperatorKind, { seconds: p.seconds / f[0], joules: p.joules / f[1] }, r);
    });
    // The run reacts at once, to its own observations.
    parts.forEach((part, j) => {
      const p = base.cost(op, part.device, part.begin, part.end);
      if (!(p.seconds > 0) || movedOff(j)) return;
      addRatio(kindKey(op.kind) * D + part.device, results[j]!.seconds / p.seconds);
    });
    // Nothing to re-decide when every operator has started, or those left have a single choice.
    if (unstarted === 0 || openChoices === 0 || failure !== undefined) return;
    let now = 0;
    for (const [k, b] of baseLeft) now += Math.max(0, b) * medianOf(k);
    const plannedLeft = Math.max(plannedLeftSum, 1e-15);
    const rel = now / plannedLeft - 1;
    if (!(Math.abs(rel) > threshold)) return;
    const before = labelOf(genome, started);
    const next = replanRemaining(plan, scaledCosts(base, scale), genome, started, done);
    const record: ReplanRecord = {
      after: op.id,
      at: (performance.now() - t0) / 1000,
      reason: `after ${op.id}, the remaining work is predicted at ${(now * 1e6).toPrecision(3)} us against ${(plannedLeft * 1e6).toPrecision(3)} us when planned (${rel > 0 ? '+' : ''}${(rel * 100).toFixed(0)}%, threshold ${(threshold * 100).toFixed(0)}%)`,
      plannedSeconds: plannedLeft,
      nowSeconds: now,
      from: before,
      to: next ? labelOf(next, started) : before,
    };
    if (next) genome.set(next);
    replans.push(record);
    for (const o of observers) o.onReplan?.(record);
    snapshotAll(scale);
  };

  for (let i = 0; i < bound.ops.length; i++) {
    const p = runOp(i);
    p.catch(() => undefined); // reported through Promise.all below
    finished.push(p);
  }
  try {
    await Promise.all(finished);
  } finally {
    await releaseResident();
  }
  // An abort that arrived while the last pieces ran still cancels the run: no result is presented.
  signal?.throwIfAborted();

  // The observed timeline: the plan's list schedule over the observed costs.
  const source: CostSource = {
    cost: (op, d, b, e) => {
      const r = observed.get(op.index, d, b, e);
      return r ? { seconds: r.seconds, joules: r.joules } : { seconds: 0, joules: 0 }; // pieces of choices not taken
    },
  };
  const timeline = observedTimeline(plan, genome, source);
  const metrics = timeline.evaluator.metrics(new Int32Array(bound.ops.length));
  const pieces: TimedPieceRecord[] = metrics.timeline.map((e) => {
    const r = recordByKey.get(e.op, e.device, e.begin, e.end)!;
    return {
      op: r.op, kind: r.kind, device: r.device, begin: r.begin, end: r.end,
      predictedSeconds: r.predictedSeconds, observedSeconds: r.observedSeconds, predictedJoules: r.predictedJoules, observedJoules: r.observedJoules,
      source: r.source, energySource: r.energySource, ...(r.steps ? { steps: r.steps } : {}), start: e.start, finish: e.finish,
    };
  });
  const total = pieces.reduce((s, p) => s + p.observedSeconds, 0);
  // A BFS re-decided level by level counts the steps that ran on a clock.
  const measured = pieces.reduce((s, p) => s + (p.steps ? p.steps.reduce((t, st) => t + (st.source === 'measured' ? st.observedSeconds : 0), 0) : p.source === 'measured' ? p.observedSeconds : 0), 0);
  const outputs: Record<string, Value> = {};
  for (const v of bound.outputs) outputs[bound.values[v]!.name] = values[v]!;
  const result: RunResult = {
    outputs,
    mapping: timeline.label,
    replans,
    pieces,
    transfers: metrics.transfers,
    makespan: metrics.makespan,
    energy: metrics.energy,
    measuredShare: total > 0 ? measured / total : 0,
    predicted: plan.predicted,
    wallSeconds: (performance.now() - t0) / 1000,
  };
  for (const o of observers) o.onRunEnd?.(result);
  return result;
}

/** Join the pieces of a split operator, in unit order. */
function join(op: BoundOp, ranges: readonly (readonly [number, number])[], outputs: readonly Value[], out: { rows: number; precision: 'f32' | 'f64' }): Value {
  if (op.kind === 'reduce') {
    const acc = outputs.length === 1 ? (outputs[0] as DenseMatrix) : combineReduce(op.reduceOp ?? 'sum', outputs as DenseMatrix[]);
    return finishReduce(op.reduceOp ?? 'sum', acc, out.precision);
  }
  if (outputs.length === 1) return outputs[0]!;
  if (op.kind === 'msbfs') {
    const parts = outputs as Int32Array[];
    const all = new Int32Array(parts.reduce((s, p) => s + p.length, 0));
    let at = 0;
    for (const p of parts) {
      all.set(p, at);
      at += p.length;
    }
    return all;
  }
  if (outputs[0] instanceof CsrMatrix) return concatCsrRows(ranges.map((range, j) => ({ range, matrix: outputs[j] as CsrMatrix })), out.rows);
  if (outputs[0] instanceof DenseMatrix) return concatRows(ranges.map((range, j) => ({ range, matrix: outputs[j] as DenseMatrix })), out.rows);
  throw new Error(`runPlan: cannot join the parts of ${op.id}`);
}
