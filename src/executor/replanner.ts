// What a run decides about the rest of its plan while it runs: the choices in force (fixed for an
// operator once it starts, revised for the others), and the four reasons to revise them: the run
// drifted from its prediction, a device was lost, a device is over the run's allowance (quotas),
// or, on a shared machine, the machine's queues moved (elasticity). Every re-plan is searched
// with the model as the run has corrected it, only over devices still usable, and recorded with
// its reason for the observers and the result.

import { ExecutionError } from '../errors.js';
import { formatChange, formatSeconds } from '../units.js';
import { mappingLabel } from '../scheduler/front.js';
import type { Backlog } from '../scheduler/backlog.js';
import type { Plan } from '../scheduler/schedule.js';
import type { CostSource } from '../scheduler/space.js';
import type { BoundOp } from '../workloads/bind.js';
import type { RunSettings } from './options.js';
import type { PieceResult } from './piece.js';
import type { DeviceLostError } from './piece-runner.js';
import type { ReplanRecord } from './records.js';
import { remainingSeconds, replanRemaining, scaledCosts } from './replan.js';
import { DriftTracker } from './tracker.js';

type Part = { readonly device: number; readonly begin: number; readonly end: number };

/** What the re-planner needs from its run: which devices the rest may go to. */
export interface ReplanHost {
  isLost(d: number): boolean;
  /** Over the run's allowance now. */
  refuses(d: number): boolean;
}

export class Replanner {
  readonly genome: Int32Array;
  readonly started: boolean[];
  readonly done: boolean[];
  // Operators not started yet, and those of them with more than one choice (kept as counts: the
  // drift check after every operator must not scan the plan).
  unstarted: number;
  openChoices: number;
  readonly replans: ReplanRecord[] = [];
  readonly tracker: DriftTracker;
  /** The operator that finished last (what a re-plan before an operator follows). */
  lastDone = '';
  /** performance.now() when the run started. */
  t0 = 0;

  constructor(
    private readonly plan: Plan,
    private readonly settings: RunSettings,
    private readonly host: ReplanHost,
  ) {
    const { bound, choices, system, model } = plan.problem;
    this.genome = Int32Array.from(plan.chosen.genome);
    this.started = bound.ops.map(() => false);
    this.done = bound.ops.map(() => false);
    this.unstarted = bound.ops.length;
    this.openChoices = choices.filter((c) => c.length > 1).length;
    this.tracker = new DriftTracker(bound, choices, system, model, this.genome, this.started, plan.problem.costs);
  }

  /** Whether the rest may be planned onto device d: not lost, and not over the run's allowance. */
  private usable(d: number): boolean {
    return !this.host.isLost(d) && !this.host.refuses(d);
  }

  /** The model's costs as this run has corrected them. */
  costs(): CostSource {
    return scaledCosts(this.tracker.base, this.tracker.scale);
  }

  label(g: Int32Array): string {
    const { bound, choices } = this.plan.problem;
    return mappingLabel(bound, choices, g, this.started);
  }

  /** Operator i starts: its choice is fixed from now on. */
  start(i: number): void {
    if (this.started[i]) return;
    this.tracker.leave(i, -1);
    if (this.plan.problem.choices[i]!.length > 1) this.openChoices--;
    this.unstarted--;
    this.started[i] = true;
  }

  /** Operator i goes back to the operators not started (its pieces run again, wherever the rest is planned). */
  unstart(i: number): void {
    this.started[i] = false;
    if (this.plan.problem.choices[i]!.length > 1) this.openChoices++;
    this.unstarted++;
  }

  /**
   * A device was lost under operator `op` (already put back among those not started): the rest
   * moves to the usable devices, with no hysteresis (the mapping in force uses the lost device).
   * @throws {ExecutionError} when no remaining device can take it.
   */
  afterLoss(op: BoundOp, e: DeviceLostError): void {
    const { plan } = this;
    const costs = this.costs();
    const next = replanRemaining(plan, costs, this.genome, this.started, this.done, (d) => this.usable(d), false);
    if (!next) {
      throw new ExecutionError(
        op.id,
        e.device,
        `runPlan: operator ${op.id} (${op.kind}): device ${e.device} was lost and no remaining device can take the rest of the plan`,
        { cause: e.cause },
      );
    }
    this.record(
      {
        after: op.id,
        reason: `device ${e.device} lost while running ${op.id} (${e.why}); the remaining operators move to the other devices`,
        plannedSeconds: this.tracker.plannedRemaining(),
        nowSeconds: remainingSeconds(plan.problem.bound, plan, costs, next.genome, this.started),
        from: this.label(this.genome),
        to: this.label(next.genome),
      },
      next.genome,
    );
  }

  /**
   * Before operator i starts: where its choice uses a device over the run's allowance, the
   * operators not started are re-planned without the refused devices (recorded). False when no
   * mapping of the rest avoids them (the run waits for the allowance).
   */
  keepToAllowance(i: number, backlog: Backlog | undefined): boolean {
    const { plan, host } = this;
    const { choices, system, bound } = plan.problem;
    if (!this.settings.allowance) return true;
    // One look at the allowance: the devices it refuses may change while the rest is re-planned.
    const refused = new Set(system.devices.flatMap((_, d) => (host.refuses(d) ? [d] : [])));
    if (!choices[i]![this.genome[i]!]!.parts.some((p) => refused.has(p.device))) return true;
    const costs = this.costs();
    const next = replanRemaining(plan, costs, this.genome, this.started, this.done, (d) => !host.isLost(d) && !refused.has(d), false, backlog);
    if (!next) return false;
    const names = [...refused].map((d) => system.devices[d]!.name);
    const one = names.length === 1;
    this.record(
      {
        after: this.lastDone,
        reason: `quota: before ${bound.ops[i]!.id}, ${names.join(', ')} ${one ? 'is' : 'are'} over the run's allowance, so the operators not started move off ${one ? 'it' : 'them'}`,
        plannedSeconds: remainingSeconds(bound, plan, costs, this.genome, this.started),
        nowSeconds: remainingSeconds(bound, plan, costs, next.genome, this.started),
        from: this.label(this.genome),
        to: this.label(next.genome),
      },
      next.genome,
    );
    return true;
  }

  /** Learn from a finished operator, and re-plan the operators not started when the remaining work has drifted. */
  afterOperator(op: BoundOp, parts: readonly Part[], results: readonly PieceResult[], mayReplan: boolean): void {
    const { learn, replan } = this.settings;
    this.done[op.index] = true;
    this.lastDone = op.id;
    if (!learn && !replan) return;
    this.tracker.observe(op, parts, results, learn);
    // Nothing to re-decide when every operator has started, or those left have a single choice.
    if (!replan || !mayReplan || this.unstarted === 0 || this.openChoices === 0) return;
    const { planned, now, relative: rel } = this.tracker.drift();
    const threshold = this.settings.threshold;
    if (!(Math.abs(rel) > threshold)) return;
    const before = this.label(this.genome);
    const next = replanRemaining(this.plan, this.costs(), this.genome, this.started, this.done, (d) => this.usable(d));
    const drift = `after ${op.id}, the remaining work is predicted at ${formatSeconds(now)} against ${formatSeconds(planned)} when planned (${formatChange(rel)}, threshold ${(threshold * 100).toFixed(0)}%)`;
    const outcome = !next
      ? '; no mapping of the rest satisfies the constraints, so the mapping in force stays'
      : next.changed
        ? `; the new mapping is predicted ${(100 * next.gain).toFixed(1)}% better`
        : next.gain > 0
          ? `; the best other mapping is predicted only ${(100 * next.gain).toFixed(1)}% better, inside the model's resolution of ${(100 * next.margin).toFixed(1)}%, so the mapping in force stays`
          : '; no other mapping is predicted better, so the mapping in force stays';
    this.record(
      { after: op.id, reason: drift + outcome, plannedSeconds: planned, nowSeconds: now, from: before, to: next?.changed ? this.label(next.genome) : before },
      next?.changed ? next.genome : null,
    );
  }

  /**
   * Operator i's turn on a shared machine that makes runs elastic: the operators not started (i
   * among them) are re-planned against the machine's queues then and the work reserved ahead, so
   * the run grows onto devices freed since and shrinks off those taken.
   */
  elastic(i: number, backlog: Backlog, costs: CostSource): void {
    const { plan } = this;
    if (this.started[i] || this.openChoices === 0) return;
    const next = replanRemaining(plan, costs, this.genome, this.started, this.done, (d) => this.usable(d), true, backlog);
    if (!next?.changed) return;
    const queues = Object.entries(backlog)
      .map(([n, sec]) => `${n} ${formatSeconds(sec)}`)
      .join(', ');
    this.record(
      {
        after: this.lastDone,
        reason: `elastic: before ${plan.problem.bound.ops[i]!.id}, the shared machine's queues and the work reserved ahead (${queues || 'none'}) make another mapping of the rest ${(100 * next.gain).toFixed(1)}% faster`,
        plannedSeconds: remainingSeconds(plan.problem.bound, plan, costs, this.genome, this.started),
        nowSeconds: remainingSeconds(plan.problem.bound, plan, costs, next.genome, this.started),
        from: this.label(this.genome),
        to: this.label(next.genome),
      },
      next.genome,
    );
  }

  /** Put a re-plan in force (when it found a mapping), tell the observers, and re-predict the rest. */
  private record(fields: Omit<ReplanRecord, 'at'>, next: Int32Array | null): void {
    const { after, ...rest } = fields;
    const record: ReplanRecord = { after, at: (performance.now() - this.t0) / 1000, ...rest };
    if (next) this.genome.set(next);
    this.replans.push(record);
    for (const o of this.settings.observers) o.onReplan?.(record);
    this.tracker.replanned(true);
  }
}
