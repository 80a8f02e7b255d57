// Carrying out a plan: every piece of every operator runs on its device (real devices for real,
// simulators simulating), operators start as soon as their operands exist, a real device runs
// its pieces one at a time (a simulator computes independent ones side by side on the host's
// cores: DeviceQueues), split operators are joined, and the run's timeline is composed from the
// observed durations by the same list schedule that made the prediction, so predicted and
// observed line up part for part. Observers see each piece as it ends and the whole run.
//
// A Run is made of parts that each own one concern: the device queues, operand residency, the
// re-planner (the choices in force, the drift-and-learning tracker, and every reason to revise
// the rest: drift, a lost device, the allowance of a shared service, elasticity), the piece
// runner (with BFS stepping plugged into it), and the timeline composer. The Run itself walks
// the operators and joins their pieces.

import type { Plan } from '../scheduler/schedule.js';
import type { BoundOp } from '../workloads/bind.js';
import type { Value } from '../workloads/reference.js';
import { DeviceRefusedError, pieceUse, waitForAllowance } from './allowance.js';
import { BfsStepping } from './bfs-stepping.js';
import { DeviceQueues, hostSlots } from './device-queues.js';
import { joinPieces } from './join.js';
import { Lifetimes, recyclePieces } from './lifetimes.js';
import { checkRunOptions, type RunPlanOptions, type RunSettings } from './options.js';
import type { PieceResult } from './piece.js';
import type { BfsStepRecord } from './bfs-steps.js';
import { GatedTimeline, type GateTurn, OUTPUTS, reservedSeconds, turnBacklog } from './gate.js';
import { DeviceLostError, PieceRunner } from './piece-runner.js';
import type { RunResult } from './records.js';
import { Replanner } from './replanner.js';
import { DeviceValues } from './device-values.js';
import { Residency } from './residency.js';
import { composeRun } from './timeline.js';

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
  /** The choices in force, and the decisions that revise them. */
  private readonly mapping: Replanner;
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
  private readonly runner: PieceRunner;
  /** On a shared machine (a gate): this run's timeline on the machine's clock. */
  private readonly gated: GatedTimeline | undefined;

  constructor(
    private readonly plan: Plan,
    private readonly settings: RunSettings,
  ) {
    const { bound, system } = plan.problem;
    this.mapping = new Replanner(plan, settings, { isLost: (d) => this.isLost(d), refuses: (d) => this.refuses(d) });
    const tracker = this.mapping.tracker;
    this.residency = new Residency(settings.signal, this.deviceValues);
    // A device whose use is counted computes one piece at a time, so each is charged before the next starts.
    const allowance = settings.allowance;
    this.slots = system.devices.map((d) => (allowance?.watched.has(d.name) ? 1 : hostSlots(d)));
    const host = {
      signal: settings.signal,
      recoverable: settings.recoverable,
      isLost: (d: number) => this.isLost(d),
      refuses: (d: number) => this.refuses(d),
      charge: (d: number, r: PieceResult & { steps?: readonly BfsStepRecord[] }) => {
        if (allowance) for (const [name, sec] of pieceUse(system.devices[d]!.name, r.seconds, r.steps)) allowance.charge(name, sec);
      },
      lose: (d: number) => void this.lost.add(d),
      bfsScale: (d: number) => tracker.bfsScale(d),
      failure: (): unknown => this.failure,
      t0: (): number => this.mapping.t0,
    };
    const stepping = new BfsStepping(plan, settings.bfsLevels, host);
    this.runner = new PieceRunner(bound, system, host, this.residency, this.deviceValues, stepping, tracker, settings.observers);
    this.values = bound.values.map((v) => v.data as Value | undefined);
    this.lifetimes = new Lifetimes(bound, settings.keepValues);
    this.gated = settings.gate ? new GatedTimeline(plan, settings.gate.origin) : undefined;
  }

  private isLost(d: number): boolean {
    return this.lost.has(d) || (this.settings.deviceLoss?.withdrawn.has(this.plan.problem.system.devices[d]!.name) ?? false);
  }

  private refuses(d: number): boolean {
    return this.settings.allowance?.refuses(this.plan.problem.system.devices[d]!.name) ?? false;
  }

  async execute(): Promise<RunResult> {
    const { plan, settings } = this;
    const { bound } = plan.problem;
    const t0 = (this.mapping.t0 = performance.now());
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
      if (await this.deviceValues.bringHome(home)) outputsHomeAt = (performance.now() - t0) / 1000;
      if (this.gated) await this.copyResultsHome();
    } finally {
      settings.gate?.close();
      await this.deviceValues.releaseAll();
      await this.residency.releaseAll();
    }
    // An abort that arrived while the last pieces ran still cancels the run: no result is presented.
    settings.signal?.throwIfAborted();
    const composed = composeRun(plan, this.mapping.genome, this.runner.observed, this.runner.records, settings.backlog, outputsHomeAt);
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
      replans: this.mapping.replans,
      pieces: composed.pieces,
      transfers: composed.metrics.transfers,
      makespan: composed.makespan,
      makespanSource: composed.makespanSource,
      composedMakespan: composed.metrics.makespan,
      composedEnergy: composed.metrics.energy,
      energy: composed.energy,
      measuredShare: composed.measuredShare,
      predicted: plan.predicted,
      wallSeconds: (performance.now() - t0) / 1000,
      busyUntil: composed.busyUntil,
      deviceCopies: this.deviceValues.copies(),
    };
    for (const o of settings.observers) o.onRunEnd?.(result);
    return result;
  }

  /** Operator i: wait for its producers, run its pieces, join them; around a lost device, re-plan and go again. */
  private async runOp(i: number): Promise<void> {
    const { bound, choices } = this.plan.problem;
    const m = this.mapping;
    const op = bound.ops[i]!;
    // Wait only for producers still running (each await is a trip through the microtask queue).
    let pending: number[] | undefined;
    for (const v of op.operands) {
      const p = bound.values[v]!.producer;
      if (p >= 0 && !m.done[p]) (pending ??= []).push(p);
    }
    if (pending) await (pending.length === 1 ? this.finished[pending[0]!]! : Promise.all(pending.map((p) => this.finished[p]!)));
    const x = op.operands.map((v) => this.values[v]!);
    for (;;) {
      const turn = this.gated ? await this.enterTurn(i) : undefined;
      if (!m.started[i] && !m.keepToAllowance(i, turn ? turnBacklog(turn, this.gated!.readyAt(i)) : undefined)) {
        // Nothing can take the rest without a device over its allowance: give the turn back and wait.
        if (turn) this.settings.gate!.leave(i, undefined);
        await waitForAllowance(this.settings.allowance!, this.settings.signal);
        continue;
      }
      m.start(i);
      const parts = choices[i]![m.genome[i]!]!.parts;
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
      if (turn) this.settings.gate!.leave(i, results ? this.gated!.place(i, m.genome[i]!, this.runner.observed, turn.free) : undefined);
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
        this.lifetimes.finished(op, this.values, (v) => this.deviceValues.forget(v));
        // On a shared machine the gate's turns re-plan (against the machine's queues too).
        m.afterOperator(op, parts, results, !this.gated && this.failure === undefined);
        return;
      }
      if (reason instanceof DeviceRefusedError && this.failure === undefined && !this.settings.signal?.aborted) m.unstart(i);
      else this.deviceLost(i, op, reason);
    }
  }

  /** A piece of operator i failed: unless its device is merely lost, the run fails; else the rest moves off it. */
  private deviceLost(i: number, op: BoundOp, e: unknown): void {
    if (this.settings.signal?.aborted || this.failure !== undefined || !(e instanceof DeviceLostError)) throw (this.failure ??= e);
    // The device is gone: this operator and every one not yet started go to the others.
    this.lost.add(e.deviceIndex);
    this.mapping.unstart(i);
    try {
      this.mapping.afterLoss(op, e);
    } catch (err) {
      throw (this.failure ??= err);
    }
  }

  /**
   * Operator i's turn on the shared machine. When the gate makes the run elastic, the operators
   * not started (i among them) are first re-planned against the machine's queues then and the
   * work reserved ahead: the run grows onto devices freed since, and shrinks off those taken.
   */
  private async enterTurn(i: number): Promise<GateTurn> {
    const { plan } = this;
    const readyAt = this.gated!.readyAt(i);
    const m = this.mapping;
    const costs = m.costs();
    const gate = this.settings.gate!;
    const turn = await gate.enter(i, readyAt, reservedSeconds(plan, costs, m.genome, m.started));
    try {
      if (turn.elastic && this.failure === undefined && !this.settings.signal?.aborted) m.elastic(i, turnBacklog(turn, readyAt), costs);
    } catch (e) {
      gate.leave(i, undefined); // the turn is given back before the run fails
      throw e;
    }
    return turn;
  }

  /** On a shared machine, the results' copies home are the run's last step on it. */
  private async copyResultsHome(): Promise<void> {
    const gate = this.settings.gate!;
    const turn = await gate.enter(OUTPUTS, this.gated!.outputsReady(), {});
    gate.leave(OUTPUTS, this.gated!.placeOutputs(turn.free));
  }
}
