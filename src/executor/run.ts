// Carrying out a plan: every piece of every operator runs on its device (real devices for real,
// simulators simulating), operators start as soon as their operands exist, a device runs its
// pieces one at a time, split operators are joined, and the run's timeline is composed from the
// observed durations by the same list schedule that made the prediction, so predicted and
// observed line up part for part. Observers see each piece as it ends and the whole run.

import { CsrMatrix } from '../data/csr.js';
import { DenseMatrix } from '../data/dense.js';
import type { EnergySource } from '../devices/device.js';
import { describe, ExecutionError, InvalidArgumentError } from '../errors.js';
import { ModelCostSource } from '../scheduler/costs.js';
import { Evaluator, type Metrics, type TransferEntry } from '../scheduler/evaluate.js';
import { type PieceResult, type PieceSource, runPiece } from '../scheduler/pieces.js';
import type { Plan } from '../scheduler/schedule.js';
import { type CostSource, CostTable } from '../scheduler/space.js';
import { checkOptions } from '../validate.js';
import type { BoundOp } from '../workloads/bind.js';
import { combineReduce, concatCsrRows, concatRows, finishReduce } from '../workloads/dense-kernels.js';
import type { Value } from '../workloads/reference.js';

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
}

/** A piece placed on the run's composed timeline (seconds from the start of the run). */
export interface TimedPieceRecord extends PieceRecord {
  readonly start: number;
  readonly finish: number;
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
}

/** Plugged into a run; never changes it. Hooks must not throw: an error they throw rejects the run. */
export interface ExecutionObserver {
  /** After each piece, in completion order. */
  onPiece?(record: PieceRecord): void;
  /** Once, with the whole result, before `runPlan` resolves. */
  onRunEnd?(result: RunResult): void;
}

export interface RunPlanOptions {
  /** Stops at the next piece boundary: pieces not started are not started, and the run rejects. */
  readonly signal?: AbortSignal;
  readonly observers?: readonly ExecutionObserver[];
}

const KEYS = ['signal', 'observers'] as const;

const pieceKey = (op: number, d: number, b: number, e: number): string => `${op}/${d}/${b}/${e}`;

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
    for (const hook of ['onPiece', 'onRunEnd'] as const) {
      const f = (o as Record<string, unknown>)[hook];
      if (f !== undefined && typeof f !== 'function') throw new InvalidArgumentError(`${fn}: observers[${i}].${hook} must be a function, got ${describe(f)}`);
    }
  });
  const signal = options.signal;
  if (signal !== undefined && !(signal instanceof AbortSignal)) throw new InvalidArgumentError(`${fn}: signal must be an AbortSignal, got ${describe(signal)}`);
  signal?.throwIfAborted();
  const { bound, choices, chosen } = plan;
  const system = plan.context.system;
  const genome = chosen.genome;
  const t0 = performance.now();

  // Predicted cost of each piece, from the model the plan was made with (memoised there).
  const predictions = new ModelCostSource(bound, system, plan.context.model);

  const values: (Value | undefined)[] = bound.values.map((v) => v.data as Value | undefined);
  const observed = new Map<string, PieceResult>();
  const records: PieceRecord[] = [];
  const queues = new Map<number, Promise<unknown>>();
  const onDevice = <T>(d: number, work: () => Promise<T>): Promise<T> => {
    const next = (queues.get(d) ?? Promise.resolve()).then(work);
    queues.set(d, next.catch(() => undefined));
    return next;
  };

  // After the first failure no new piece starts: the run is lost, and its remaining work with it.
  let failure: unknown;
  const finished: Promise<void>[] = [];
  const runOp = async (i: number): Promise<void> => {
    const op = bound.ops[i]!;
    await Promise.all(op.operands.map((v) => (bound.values[v]!.producer >= 0 ? finished[bound.values[v]!.producer]! : undefined)));
    const x = op.operands.map((v) => values[v]!);
    const parts = choices[i]![genome[i]!]!.parts;
    const results = await Promise.all(
      parts.map((part) =>
        onDevice(part.device, async () => {
          signal?.throwIfAborted();
          if (failure !== undefined) throw failure;
          const device = system.devices[part.device]!;
          let r: PieceResult;
          try {
            r = await runPiece(bound, op, device, x, part.begin, part.end, signal);
          } catch (cause) {
            if (signal?.aborted) throw (failure = signal.reason);
            throw (failure ??= new ExecutionError(op.id, device.name, `${fn}: operator ${op.id} (${op.kind}) on ${device.name}, units [${part.begin}, ${part.end}): ${cause instanceof Error ? cause.message : String(cause)}`, { cause }));
          }
          const k = pieceKey(i, part.device, part.begin, part.end);
          observed.set(k, r);
          const p = predictions.cost(op, part.device, part.begin, part.end);
          const rec: PieceRecord = {
            op: op.id, kind: op.kind, device: device.name, begin: part.begin, end: part.end,
            predictedSeconds: p.seconds, observedSeconds: r.seconds, predictedJoules: p.joules, observedJoules: r.joules,
            source: r.source, energySource: r.energySource,
          };
          records.push(rec);
          for (const o of observers) o.onPiece?.(rec);
          return r;
        }),
      ),
    );
    values[op.output] = join(op, parts.map((p) => [p.begin, p.end] as const), results.map((r) => r.output), bound.values[op.output]!);
  };
  for (let i = 0; i < bound.ops.length; i++) {
    const p = runOp(i);
    p.catch(() => undefined); // reported through Promise.all below
    finished.push(p);
  }
  await Promise.all(finished);
  // An abort that arrived while the last pieces ran still cancels the run: no result is presented.
  signal?.throwIfAborted();

  // The observed timeline: the plan's list schedule over the observed costs.
  const source: CostSource = {
    cost: (op, d, b, e) => {
      const r = observed.get(pieceKey(op.index, d, b, e));
      return r ? { seconds: r.seconds, joules: r.joules } : { seconds: 0, joules: 0 }; // pieces of choices not taken
    },
  };
  const oneChoice = choices.map((c, i) => [c[genome[i]!]!]);
  const table = new CostTable(oneChoice, bound.ops, source);
  const metrics = new Evaluator(bound, system, table, ['time', 'energy']).metrics(new Int32Array(bound.ops.length));
  const byKey = new Map(records.map((r) => [`${r.op}/${r.device}/${r.begin}/${r.end}`, r]));
  const pieces: TimedPieceRecord[] = metrics.timeline.map((e) => {
    const r = byKey.get(`${bound.ops[e.op]!.id}/${system.devices[e.device]!.name}/${e.begin}/${e.end}`)!;
    return { ...r, start: e.start, finish: e.finish };
  });
  const total = pieces.reduce((s, p) => s + p.observedSeconds, 0);
  const measured = pieces.reduce((s, p) => s + (p.source === 'measured' ? p.observedSeconds : 0), 0);
  const outputs: Record<string, Value> = {};
  for (const v of bound.outputs) outputs[bound.values[v]!.name] = values[v]!;
  const result: RunResult = {
    outputs,
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
