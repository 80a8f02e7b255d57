// The model's costs corrected by what probes of this input observed. A correction has two parts:
// what one call costs on the device (observed beside the model's figure, for operators whose
// parts are separate calls: a simulated CGRA that loads its dense operand into the array pays it
// once per call, microseconds the model may price at a tenth of that), and a ratio for the work
// above it. A part is then priced as the observed call plus the model's work above its own call
// figure, scaled by the ratio. Without the call term, small probe chunks, which are mostly call,
// would scale every part by the call's error and mis-price whole operators by 30% or more.

import type { BoundOp, BoundWorkload } from '../workloads/bind.js';
import type { ModelCostSource, OperatorEstimate, PlanningCosts } from './costs.js';

export type Cost = { readonly seconds: number; readonly joules: number };

/** Observed over predicted for the work above one call, for time and energy, and the relative spread of the observations. */
export interface Ratio {
  readonly time: number;
  readonly energy: number;
  readonly spread: number;
}

/** One call's cost on a device as observed, and as the model priced the same call. */
export interface CallCost {
  readonly observed: Cost;
  readonly model: Cost;
}

/**
 * How an operator's cost on one device departs from the model along its rows: a ratio per chunk
 * of rows, each chunk standing for the cell of rows nearest to it, so a part's ratio is the
 * chunks' ratios weighted by how much of the part's work falls in each cell.
 */
export interface RowProfile {
  /** Cell boundaries in units: cell k is [cells[k], cells[k + 1]). */
  readonly cells: readonly number[];
  readonly ratios: readonly Ratio[];
}

const pairKey = (op: number, d: number): number => op * 64 + d;
const partKey = (op: number, d: number, b: number, e: number): string => `${op}/${d}/${b}/${e}`;

/** `c` (the model's figure) corrected: the observed call plus the work above the model's call, scaled. */
export function corrected(c: Cost, r: Ratio, call: CallCost | undefined): Cost {
  if (!call) return { seconds: c.seconds * r.time, joules: c.joules * r.energy };
  return {
    seconds: call.observed.seconds + r.time * aboveCall(c.seconds, 1, call.model.seconds),
    joules: call.observed.joules + r.energy * aboveCall(c.joules, 1, call.model.joules),
  };
}

/**
 * The work above one call, observed or predicted, over `n` calls: never below a twentieth of the
 * total, so that noise (or a model whose figure is all call) cannot make it vanish. Ratios are
 * taken between such terms and applied to them, so the floor is the same on both sides.
 */
export function aboveCall(total: number, n: number, perCall: number | undefined): number {
  return perCall === undefined ? total : Math.max(total - n * perCall, 0.05 * total);
}

/** The work in units `[b, e)` of an operator: stored entries plus rows for a sparse operand split by rows, else elements. */
export function workOf(op: BoundOp, bound: BoundWorkload): (b: number, e: number) => number {
  const lead = bound.values[op.operands[0]!]!;
  const rp = op.split === 'rows' && lead.kind === 'sparse' && lead.pattern ? lead.pattern.rowPtr : undefined;
  const entriesPerUnit = rp ? 0 : Math.max(1, bound.values[op.output]!.entries / Math.max(1, op.units));
  return (b, e) => (rp ? Number(rp[e]!) - Number(rp[b]!) + (e - b) : (e - b) * entriesPerUnit);
}

/** The model's costs corrected by what probes on this input observed. */
export class ProbedCostSource implements PlanningCosts {
  /** Device seconds and calls the probes took. */
  probeSeconds = 0;
  probeCalls = 0;

  constructor(
    readonly model: ModelCostSource,
    private readonly wholeRatios = new Map<number, Ratio>(),
    private readonly parts = new Map<string, Ratio>(),
    private readonly profiles = new Map<number, RowProfile>(),
    private readonly calls = new Map<number, CallCost>(),
  ) {}

  /** The same probes over another source of the model's predictions (the model as a run starts). */
  over(model: ModelCostSource): ProbedCostSource {
    return new ProbedCostSource(model, this.wholeRatios, this.parts, this.profiles, this.calls);
  }

  cost(op: BoundOp, device: number, begin: number, end: number): Cost {
    const c = this.model.cost(op, device, begin, end);
    const r = this.parts.get(partKey(op.index, device, begin, end)) ?? this.profileRatio(op, device, begin, end) ?? this.wholeRatios.get(pairKey(op.index, device));
    return r ? corrected(c, r, this.call(op.index, device)) : c;
  }

  /** A part's ratio from its operator's row profile on the device: the cells' ratios weighted by the part's work in each. */
  private profileRatio(op: BoundOp, device: number, begin: number, end: number): Ratio | undefined {
    const prof = this.profiles.get(pairKey(op.index, device));
    if (!prof) return undefined;
    const work = workOf(op, this.model.bound);
    let w = 0;
    let t = 0;
    let e = 0;
    for (let k = 0; k < prof.ratios.length; k++) {
      const lo = Math.max(begin, prof.cells[k]!);
      const hi = Math.min(end, prof.cells[k + 1]!);
      if (hi <= lo) continue;
      const x = work(lo, hi);
      w += x;
      t += x * prof.ratios[k]!.time;
      e += x * prof.ratios[k]!.energy;
    }
    return w > 0 ? { time: t / w, energy: e / w, spread: 0 } : undefined;
  }

  setProfile(op: number, device: number, profile: RowProfile): void {
    this.profiles.set(pairKey(op, device), profile);
  }

  /** What one call of the operator costs on the device, observed beside the model's figure, when it was probed. */
  call(op: number, device: number): CallCost | undefined {
    return this.calls.get(pairKey(op, device));
  }

  setCall(op: number, device: number, call: CallCost): void {
    this.calls.set(pairKey(op, device), call);
  }

  /** Whether this operator was probed on this device, and the spread of what was seen. */
  probed(op: number, device: number): Ratio | undefined {
    return this.wholeRatios.get(pairKey(op, device));
  }

  /** The whole operator on one device: the model's estimate at the level the probe saw, its uncertainty the probe's spread. */
  whole(op: BoundOp, device: number): OperatorEstimate {
    const e = this.model.whole(op, device);
    const r = this.wholeRatios.get(pairKey(op.index, device));
    if (!r) return e;
    const c = this.cost(op, device, 0, Math.max(op.units, 1));
    const m = this.model.cost(op, device, 0, Math.max(op.units, 1));
    // Scaled like the whole operator's corrected cost (the estimate may carry more than one call's figure).
    const time = m.seconds > 0 ? c.seconds / m.seconds : r.time;
    const energy = m.joules > 0 ? c.joules / m.joules : r.energy;
    return { ...e, seconds: e.seconds * time, joules: e.joules * energy, basis: 'probed', uncertainty: r.spread };
  }

  setWhole(op: number, device: number, r: Ratio): void {
    this.wholeRatios.set(pairKey(op, device), r);
  }

  setPart(op: number, device: number, begin: number, end: number, r: Ratio): void {
    this.parts.set(partKey(op, device, begin, end), r);
  }

  hasPart(op: number, device: number, begin: number, end: number): boolean {
    return this.parts.has(partKey(op, device, begin, end));
  }
}
