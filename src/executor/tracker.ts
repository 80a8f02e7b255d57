// The drift-and-learning tracker of a run: what each piece was predicted to cost when it was
// (re)planned, how much slower or faster than predicted each (operator kind, device) has run so
// far, and whether the remaining work has drifted past the threshold. It is also the one place
// where a run's observations teach the cost model.

import type { CostModel } from '../cost/model.js';
import type { OperatorKind } from '../devices/device.js';
import type { System } from '../devices/system.js';
import { ModelCostSource, type PlanningCosts } from '../scheduler/costs.js';
import { ProbedCostSource } from '../scheduler/probed-costs.js';
import { PieceMap } from '../scheduler/piece-map.js';
import type { Choice } from '../scheduler/space.js';
import type { BoundOp, BoundWorkload } from '../workloads/bind.js';
import type { BfsStepRecord } from './bfs-steps.js';
import type { PieceResult } from './piece.js';
import { type Scale, scaledCosts } from './replan.js';

/** Operators the cost model predicts from features (and learns from); the rest are rooflines. */
const MODEL_KINDS: ReadonlySet<string> = new Set(['spmm', 'spmv', 'bfs', 'msbfs']);

type Part = { readonly device: number; readonly begin: number; readonly end: number };
type Cost = { seconds: number; joules: number };

export class DriftTracker {
  /**
   * The plan's predictions as the run starts, for every piece of every choice: the model's as it
   * stands now, at the level the plan's probes saw (frozen: the model keeps learning while the
   * run goes on, and the run's own corrections go on top).
   */
  readonly base: PlanningCosts;
  /** The model's own predictions as the run starts (what the model learns against: its bias, not the probes'). */
  private readonly predictions: ModelCostSource;
  /** Observed / predicted time per (operator kind, device) in this run: the run's own correction. */
  readonly scale: Scale;
  private readonly D: number;
  private readonly kinds = new Map<string, number>();
  /** What each piece was predicted to cost when it was (re)planned: the yardstick for drift and the records' predicted figures. */
  private readonly predicted: PieceMap<Cost>;
  /**
   * The model's online-correction factors as the run starts, per (kind, device) key: the base
   * predictions carry them, and the model learns from each piece against its prediction without
   * them (the uncorrected one), so the run never predicts a piece twice.
   */
  private readonly startFactors = new Map<number, readonly [number, number]>();
  /** Observed / predicted ratios per (kind, device) key, each list kept sorted so the median is a lookup. */
  private readonly ratios = new Map<number, number[]>();
  // The remaining work as planned, and per (kind, device) as the model priced it at the start:
  // running sums, subtracted as operators start and rebuilt when a re-plan changes the mapping,
  // so the check after every operator costs a few additions, not a pass over the plan.
  private plannedLeftSum = 0;
  private baseLeft = new Map<number, number>();

  constructor(
    private readonly bound: BoundWorkload,
    private readonly choices: readonly (readonly Choice[])[],
    private readonly system: System,
    private readonly model: CostModel,
    /** The choices in force and which operators have started: the run's own arrays, read live. */
    private readonly genome: Int32Array,
    private readonly started: readonly boolean[],
    /** The plan's planning costs: when they carry probes of this input, the run's predictions do too. */
    probes?: PlanningCosts,
  ) {
    this.D = system.devices.length;
    this.predicted = new PieceMap(bound.ops.length);
    system.devices.forEach((device, d) => {
      for (const kind of device.capabilities.operators) this.startFactors.set(this.key(kind, d), model.correctionFactors(device, kind));
    });
    // Priced when first asked, at the correction of the run's start: the same figures as pricing
    // every piece of every choice up front, which was about 70% of a tiny job's runPlan.
    this.predictions = new ModelCostSource(bound, system, model, (d, kind) => this.startFactors.get(this.key(kind, d)));
    this.base = probes instanceof ProbedCostSource ? probes.over(this.predictions) : this.predictions;
    this.scale = (kind, d) => this.median(this.key(kind, d));
    this.replanned();
  }

  private key(kind: string, d: number): number {
    let k = this.kinds.get(kind);
    if (k === undefined) this.kinds.set(kind, (k = this.kinds.size));
    return k * this.D + d;
  }

  private median(k: number): number {
    const r = this.ratios.get(k);
    return r && r.length > 0 ? r[r.length >> 1]! : 1;
  }

  /** The prediction a piece is judged by: as of its operator's last (re)plan, else the run's start. */
  prediction(i: number, part: Part): Cost {
    return this.predicted.get(i, part.device, part.begin, part.end) ?? this.base.cost(this.bound.ops[i]!, part.device, part.begin, part.end);
  }

  /** Operator i starts (sign -1) or is put back (sign 1): its pieces leave or rejoin the remaining sums. */
  leave(i: number, sign: 1 | -1): void {
    const op = this.bound.ops[i]!;
    for (const part of this.choices[i]![this.genome[i]!]!.parts) {
      const b = this.base.cost(op, part.device, part.begin, part.end).seconds;
      const k = this.key(op.kind, part.device);
      this.baseLeft.set(k, (this.baseLeft.get(k) ?? 0) + sign * b);
      this.plannedLeftSum += sign * (this.predicted.get(i, part.device, part.begin, part.end)?.seconds ?? b);
    }
  }

  /**
   * The mapping in force changed (or the run starts): the operators not started are predicted
   * afresh, scaled by what the run observed when `withScale` is set, and the sums rebuilt.
   */
  replanned(withScale = false): void {
    const costs = withScale ? scaledCosts(this.base, this.scale) : this.base;
    const { bound, choices, genome, started } = this;
    bound.ops.forEach((op, i) => {
      if (started[i]) return;
      for (const part of choices[i]![genome[i]!]!.parts)
        this.predicted.set(i, part.device, part.begin, part.end, costs.cost(op, part.device, part.begin, part.end));
    });
    this.plannedLeftSum = 0;
    this.baseLeft = new Map();
    bound.ops.forEach((_, i) => {
      if (!started[i]) this.leave(i, 1);
    });
  }

  /** Predicted seconds of the operators not started, as planned (a pass over the plan: for records, not the hot path). */
  plannedRemaining(): number {
    let sum = 0;
    this.bound.ops.forEach((_, i) => {
      if (this.started[i]) return;
      for (const part of this.choices[i]![this.genome[i]!]!.parts) sum += this.prediction(i, part).seconds;
    });
    return sum;
  }

  /**
   * Learn from operator i's pieces: the model (slowly and robustly, its online correction, shown
   * its uncorrected predictions) and the run (at once, its own median ratios). Roofline-priced
   * pieces teach nothing, nor does a BFS whose levels ran on devices other than its planned one.
   */
  observe(op: BoundOp, parts: readonly Part[], results: readonly PieceResult[], learn: boolean): void {
    const movedOff = (j: number): boolean => {
      const st = (results[j] as { steps?: readonly BfsStepRecord[] }).steps;
      return st?.some((s) => s.device !== this.system.devices[parts[j]!.device]!.name) ?? false;
    };
    parts.forEach((part, j) => {
      const r = results[j]!;
      if (!learn || r.source === 'roofline' || movedOff(j)) return;
      const f = this.startFactors.get(this.key(op.kind, part.device));
      if (!f || !MODEL_KINDS.has(op.kind)) return;
      const p = this.predictions.cost(op, part.device, part.begin, part.end);
      this.model.observeUncorrected(this.system.devices[part.device]!, op.kind as OperatorKind, { seconds: p.seconds / f[0], joules: p.joules / f[1] }, r);
    });
    parts.forEach((part, j) => {
      const p = this.base.cost(op, part.device, part.begin, part.end);
      if (!(p.seconds > 0) || movedOff(j)) return;
      this.addRatio(this.key(op.kind, part.device), results[j]!.seconds / p.seconds);
    });
  }

  private addRatio(k: number, v: number): void {
    const list = this.ratios.get(k) ?? [];
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]! <= v) lo = mid + 1;
      else hi = mid;
    }
    list.splice(lo, 0, v);
    this.ratios.set(k, list);
  }

  /** The remaining work as planned and as the run's observations now predict it. */
  drift(): { readonly planned: number; readonly now: number; readonly relative: number } {
    let now = 0;
    for (const [k, b] of this.baseLeft) now += Math.max(0, b) * this.median(k);
    const planned = Math.max(this.plannedLeftSum, 1e-15);
    return { planned, now, relative: now / planned - 1 };
  }

  /** Per-(kind, device) ratio for a BFS on device d (the level-by-level choice reads it). */
  bfsScale(d: number): number {
    return this.scale('bfs', d);
  }
}
