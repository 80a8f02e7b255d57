// Carrying out a plan: every piece of every operator runs on its device (real devices for real,
// simulators simulating), operators start as soon as their operands exist, a real device runs
// its pieces one at a time (a simulator computes independent ones side by side on the host's
// cores: DeviceQueues), split operators are joined, and the run's timeline is composed from the
// observed durations by the same list schedule that made the prediction, so predicted and
// observed line up part for part. Observers see each piece as it ends and the whole run.
//
// A Run is made of parts that each own one concern: the device queues, operand residency, the
// drift-and-learning tracker, the piece runner (with BFS stepping plugged into it), and the
// timeline composer. The Run itself walks the operators, joins their pieces, and re-plans the
// rest when the run drifts or a device is lost.

import { ExecutionError } from '../errors.js';
import { formatChange, formatSeconds } from '../units.js';
import { mappingLabel } from '../scheduler/front.js';
import type { Plan } from '../scheduler/schedule.js';
import type { BoundOp } from '../workloads/bind.js';
import type { Value } from '../workloads/reference.js';
import { BfsStepping } from './bfs-stepping.js';
import { DeviceQueues, hostSlots } from './device-queues.js';
import { joinPieces } from './join.js';
import { Lifetimes, recyclePieces } from './lifetimes.js';
import { checkRunOptions, type RunPlanOptions, type RunSettings } from './options.js';
import type { CostSource } from '../scheduler/space.js';
import type { PieceResult } from './piece.js';
import { GatedTimeline, type GateTurn, OUTPUTS, reservedSeconds, turnBacklog } from './gate.js';
import { DeviceLostError, PieceRunner } from './piece-runner.js';
import type { ReplanRecord, RunResult } from './records.js';
import { remainingSeconds, replanRemaining, scaledCosts } from './replan.js';
import { DeviceValues } from './device-values.js';
import { Residency } from './residency.js';
import { composeRun } from './timeline.js';
import { DriftTracker } from './tracker.js';

export { DeviceLoss, type RunPlanOptions } from './options.js';
export type { ExecutionObserver, PieceRecord, ReplanRecord, RunResult, TimedPieceRecord } from './records.js';

const fn = 'runPlan';

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
  return new Run(plan, checkRunOptions(fn, plan, options)).execute();
}

/** One execution of a plan: its state, and the parts that act on it. */
class Run {
  // The choices in force: fixed for an operator once it starts, revised for the rest by re-plans.
  private readonly genome: Int32Array;
  private readonly started: boolean[];
  private readonly done: boolean[];
  // Operators not started yet, and those of them with more than one choice (kept as counts: the
  // drift check after every operator must not scan the plan).
  private unstarted: number;
  private openChoices: number;
  private readonly replans: ReplanRecord[] = [];
  /** The error that lost the run: after it no new piece starts, and the remaining work is lost with it. */
  private failure: unknown;
  /** Devices lost during this run: withdrawn through `deviceLoss`, or failed while running a piece. */
  private readonly lost = new Set<number>();
  private readonly values: (Value | undefined)[];
  private readonly lifetimes: Lifetimes;
  private readonly finished: Promise<void>[] = [];
  private readonly queues = new DeviceQueues();
  /** Per device, how many of its pieces may compute at once (DeviceQueues). */
  private readonly slots: number[];
  private readonly residency: Residency;
  private readonly deviceValues = new DeviceValues();
  private readonly tracker: DriftTracker;
  private readonly runner: PieceRunner;
  /** On a shared machine (a gate): this run's timeline on the machine's clock. */
  private readonly gated: GatedTimeline | undefined;
  /** The operator that finished last (what an elastic re-plan follows). */
  private lastDone = '';
  private t0 = 0;

  constructor(
    private readonly plan: Plan,
    private readonly settings: RunSettings,
  ) {
    const { bound, choices, system, model } = plan.problem;
    this.genome = Int32Array.from(plan.chosen.genome);
    this.started = bound.ops.map(() => false);
    this.done = bound.ops.map(() => false);
    this.unstarted = bound.ops.length;
    this.openChoices = choices.filter((c) => c.length > 1).length;
    this.tracker = new DriftTracker(bound, choices, system, model, this.genome, this.started, plan.problem.costs);
    this.residency = new Residency(settings.signal, this.deviceValues);
    this.slots = system.devices.map(hostSlots);
    const host = {
      signal: settings.signal,
      recoverable: settings.recoverable,
      isLost: (d: number) => this.isLost(d),
      lose: (d: number) => void this.lost.add(d),
      bfsScale: (d: number) => this.tracker.bfsScale(d),
      failure: (): unknown => this.failure,
      t0: (): number => this.t0,
    };
    const stepping = new BfsStepping(plan, settings.bfsLevels, host);
    this.runner = new PieceRunner(bound, system, host, this.residency, this.deviceValues, stepping, this.tracker, settings.observers);
    this.values = bound.values.map((v) => v.data as Value | undefined);
    this.lifetimes = new Lifetimes(bound, settings.keepValues);
    this.gated = settings.gate ? new GatedTimeline(plan, settings.gate.origin) : undefined;
  }

  private isLost(d: number): boolean {
    return this.lost.has(d) || (this.settings.deviceLoss?.withdrawn.has(this.plan.problem.system.devices[d]!.name) ?? false);
  }

  private label(g: Int32Array): string {
    const { bound, choices } = this.plan.problem;
    return mappingLabel(bound, choices, g, this.started);
  }

  async execute(): Promise<RunResult> {
    const { plan, settings } = this;
    const { bound } = plan.problem;
    this.t0 = performance.now();
    let outputsHomeAt: number | undefined;
    for (let i = 0; i < bound.ops.length; i++) {
      const p = this.runOp(i);
      p.catch(() => undefined); // reported through Promise.all below
      this.finished.push(p);
    }
    try {
      await Promise.all(this.finished);
      // Results still only on a device come home once, before anyone reads them.
      const home = settings.keepValues ? bound.ops.map((op) => this.values[op.output]!) : bound.outputs.map((v) => this.values[v]!);
      // Outputs a device kept to the end are home only now: the measured makespan runs to here.
      if (await this.deviceValues.bringHome(home)) outputsHomeAt = (performance.now() - this.t0) / 1000;
      if (this.gated) await this.copyResultsHome();
    } finally {
      settings.gate?.close();
      await this.deviceValues.releaseAll();
      await this.residency.releaseAll();
    }
    // An abort that arrived while the last pieces ran still cancels the run: no result is presented.
    settings.signal?.throwIfAborted();
    const composed = composeRun(plan, this.genome, this.runner.observed, this.runner.records, settings.backlog, outputsHomeAt);
    const outputs: Record<string, Value> = {};
    for (const v of bound.outputs) outputs[bound.values[v]!.name] = this.values[v]!;
    let values: Record<string, Value> | undefined;
    if (settings.keepValues) {
      values = {};
      for (const op of bound.ops) values[op.id] = this.values[op.output]!;
    }
    const result: RunResult = {
      outputs,
      ...(values ? { values } : {}),
      mapping: composed.mapping,
      replans: this.replans,
      pieces: composed.pieces,
      transfers: composed.metrics.transfers,
      makespan: composed.makespan,
      makespanSource: composed.makespanSource,
      composedMakespan: composed.metrics.makespan,
      energy: composed.energy,
      measuredShare: composed.measuredShare,
      predicted: plan.predicted,
      wallSeconds: (performance.now() - this.t0) / 1000,
      busyUntil: composed.busyUntil,
      deviceCopies: this.deviceValues.copies(),
    };
    for (const o of settings.observers) o.onRunEnd?.(result);
    return result;
  }

  /** Operator i: wait for its producers, run its pieces, join them; around a lost device, re-plan and go again. */
  private async runOp(i: number): Promise<void> {
    const { bound, choices } = this.plan.problem;
    const op = bound.ops[i]!;
    // Wait only for producers still running (each await is a trip through the microtask queue).
    let pending: number[] | undefined;
    for (const v of op.operands) {
      const p = bound.values[v]!.producer;
      if (p >= 0 && !this.done[p]) (pending ??= []).push(p);
    }
    if (pending) await (pending.length === 1 ? this.finished[pending[0]!]! : Promise.all(pending.map((p) => this.finished[p]!)));
    const x = op.operands.map((v) => this.values[v]!);
    for (;;) {
      const turn = this.gated ? await this.enterTurn(i) : undefined;
      if (!this.started[i]) {
        this.tracker.leave(i, -1);
        if (choices[i]!.length > 1) this.openChoices--;
        this.unstarted--;
      }
      this.started[i] = true;
      const parts = choices[i]![this.genome[i]!]!.parts;
      let results: PieceResult[] | undefined;
      let reason: unknown;
      if (parts.length === 1) {
        try {
          const d = parts[0]!.device;
          results = [await this.queues.run(d, () => this.runner.run(i, op, x, parts[0]!), this.slots[d])];
        } catch (err) {
          reason = err;
        }
      } else {
        const settled = await Promise.allSettled(
          parts.map((part) => this.queues.run(part.device, () => this.runner.run(i, op, x, part), this.slots[part.device])),
        );
        const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
        if (failed) reason = failed.reason;
        else results = settled.map((r) => (r as PromiseFulfilledResult<PieceResult>).value);
      }
      if (turn) this.settings.gate!.leave(i, results ? this.gated!.place(i, this.genome[i]!, this.runner.observed, turn.free) : undefined);
      if (results) {
        // One piece (most operators): its output is the operator's, reductions aside.
        if (parts.length === 1 && op.kind !== 'reduce') this.values[op.output] = results[0]!.output;
        else {
          const outputs = results.map((r) => r.output);
          const joined = joinPieces(
            op,
            parts.map((p) => [p.begin, p.end] as const),
            outputs,
            bound.values[op.output]!,
          );
          recyclePieces(op, outputs, joined);
          this.values[op.output] = joined;
        }
        this.done[i] = true;
        this.lifetimes.finished(op, this.values, (v) => this.deviceValues.forget(v));
        this.lastDone = op.id;
        this.afterOperator(op, parts, results);
        return;
      }
      this.deviceLost(i, op, reason);
    }
  }

  /** A piece of operator i failed: unless its device is merely lost, the run fails; else the rest moves off it. */
  private deviceLost(i: number, op: BoundOp, e: unknown): void {
    const { plan } = this;
    const { choices } = plan.problem;
    if (this.settings.signal?.aborted || this.failure !== undefined || !(e instanceof DeviceLostError)) throw (this.failure ??= e);
    // The device is gone: this operator and every one not yet started go to the others.
    this.lost.add(e.deviceIndex);
    this.started[i] = false;
    if (choices[i]!.length > 1) this.openChoices++;
    this.unstarted++;
    const costs = scaledCosts(this.tracker.base, this.tracker.scale);
    // The mapping in force uses the lost device: no hysteresis, the rest must move.
    const next = replanRemaining(plan, costs, this.genome, this.started, this.done, (d) => !this.isLost(d), false);
    if (!next) {
      throw (this.failure ??= new ExecutionError(
        op.id,
        e.device,
        `${fn}: operator ${op.id} (${op.kind}): device ${e.device} was lost and no remaining device can take the rest of the plan`,
        { cause: e.cause },
      ));
    }
    this.record(
      {
        after: op.id,
        at: (performance.now() - this.t0) / 1000,
        reason: `device ${e.device} lost while running ${op.id} (${e.why}); the remaining operators move to the other devices`,
        plannedSeconds: this.tracker.plannedRemaining(),
        nowSeconds: remainingSeconds(plan.problem.bound, plan, costs, next.genome, this.started),
        from: this.label(this.genome),
        to: this.label(next.genome),
      },
      next.genome,
    );
  }

  /** Learn from a finished operator, and re-plan the operators not started when the remaining work has drifted. */
  private afterOperator(op: BoundOp, parts: readonly { device: number; begin: number; end: number }[], results: readonly PieceResult[]): void {
    const { learn, replan } = this.settings;
    if (!learn && !replan) return;
    this.tracker.observe(op, parts, results, learn);
    // Nothing to re-decide when every operator has started, or those left have a single choice.
    // On a shared machine the gate's turns re-plan (against the machine's queues too).
    if (!replan || this.gated || this.unstarted === 0 || this.openChoices === 0 || this.failure !== undefined) return;
    const { planned, now, relative: rel } = this.tracker.drift();
    const threshold = this.settings.threshold;
    if (!(Math.abs(rel) > threshold)) return;
    const before = this.label(this.genome);
    const next = replanRemaining(this.plan, scaledCosts(this.tracker.base, this.tracker.scale), this.genome, this.started, this.done);
    const drift = `after ${op.id}, the remaining work is predicted at ${formatSeconds(now)} against ${formatSeconds(planned)} when planned (${formatChange(rel)}, threshold ${(threshold * 100).toFixed(0)}%)`;
    const outcome = !next
      ? '; no mapping of the rest satisfies the constraints, so the mapping in force stays'
      : next.changed
        ? `; the new mapping is predicted ${(100 * next.gain).toFixed(1)}% better`
        : next.gain > 0
          ? `; the best other mapping is predicted only ${(100 * next.gain).toFixed(1)}% better, inside the model's resolution of ${(100 * next.margin).toFixed(1)}%, so the mapping in force stays`
          : '; no other mapping is predicted better, so the mapping in force stays';
    this.record(
      {
        after: op.id,
        at: (performance.now() - this.t0) / 1000,
        reason: drift + outcome,
        plannedSeconds: planned,
        nowSeconds: now,
        from: before,
        to: next?.changed ? this.label(next.genome) : before,
      },
      next?.changed ? next.genome : null,
    );
  }

  /**
   * Operator i's turn on the shared machine. When the gate makes the run elastic, the operators
   * not started (i among them) are first re-planned against the machine's queues then and the
   * work reserved ahead: the run grows onto devices freed since, and shrinks off those taken.
   */
  private async enterTurn(i: number): Promise<GateTurn> {
    const { plan } = this;
    const readyAt = this.gated!.readyAt(i);
    const costs = scaledCosts(this.tracker.base, this.tracker.scale);
    const gate = this.settings.gate!;
    const turn = await gate.enter(i, readyAt, reservedSeconds(plan, costs, this.genome, this.started));
    try {
      this.elasticReplan(i, turn, readyAt, costs);
    } catch (e) {
      gate.leave(i, undefined); // the turn is given back before the run fails
      throw e;
    }
    return turn;
  }

  private elasticReplan(i: number, turn: GateTurn, readyAt: number, costs: CostSource): void {
    const { plan } = this;
    if (!turn.elastic || this.started[i] || this.openChoices === 0 || this.failure !== undefined || this.settings.signal?.aborted) return;
    const backlog = turnBacklog(turn, readyAt);
    const next = replanRemaining(plan, costs, this.genome, this.started, this.done, (d) => !this.isLost(d), true, backlog);
    if (!next?.changed) return;
    const queues = Object.entries(backlog)
      .map(([n, sec]) => `${n} ${formatSeconds(sec)}`)
      .join(', ');
    this.record(
      {
        after: this.lastDone,
        at: (performance.now() - this.t0) / 1000,
        reason: `elastic: before ${plan.problem.bound.ops[i]!.id}, the shared machine's queues and the work reserved ahead (${queues || 'none'}) make another mapping of the rest ${(100 * next.gain).toFixed(1)}% faster`,
        plannedSeconds: remainingSeconds(plan.problem.bound, plan, costs, this.genome, this.started),
        nowSeconds: remainingSeconds(plan.problem.bound, plan, costs, next.genome, this.started),
        from: this.label(this.genome),
        to: this.label(next.genome),
      },
      next.genome,
    );
  }

  /** On a shared machine, the results' copies home are the run's last step on it. */
  private async copyResultsHome(): Promise<void> {
    const gate = this.settings.gate!;
    const turn = await gate.enter(OUTPUTS, this.gated!.outputsReady(), {});
    gate.leave(OUTPUTS, this.gated!.placeOutputs(turn.free));
  }

  /** Put a re-plan in force (when it found a mapping), tell the observers, and re-predict the rest. */
  private record(record: ReplanRecord, next: Int32Array | null): void {
    if (next) this.genome.set(next);
    this.replans.push(record);
    for (const o of this.settings.observers) o.onReplan?.(record);
    this.tracker.replanned(true);
  }
}
