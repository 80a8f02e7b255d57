// The model's costs corrected by what probes of this input observed, in order of trust: a part
// run exactly as it will run costs what it cost; a sparse operator split by rows is priced from
// its row profile (a fixed cost per call and a cost per unit of work in each cell of rows, all
// observed); other operators scale the model's figure by what a probe of them saw, above the
// cost of one call where that was observed. The fixed cost matters: a simulated CGRA that loads
// a dense operand fitting its scratchpad pays it on every call, microseconds the model prices at
// a fraction of that, and scaling parts by chunks that were mostly call priced whole operators
// 1.5x and put a GCN on the smaller CGRA at 28% more energy.

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
 * An operator's cost on one device along its rows, as observed: a fixed cost per call, and a
 * cost per unit of work (stored entries plus rows) in each cell of rows, read off a probe chunk
 * in that cell. A part costs the fixed cost plus the work it holds in each cell at that cell's
 * rate: no model enters, so a model whose shape is wrong at this size (a CGRA SpMV it priced
 * as all call) cannot bend the price of a part.
 */
export interface RowProfile {
  /** Cell boundaries in units: cell k is [cells[k], cells[k + 1]). */
  readonly cells: readonly number[];
  /** Seconds and joules per unit of work in each cell, above the fixed cost. */
  readonly rates: readonly Cost[];
  readonly fixed: Cost;
}

/**
 * An operator's cost on one device against how many of its units a part holds, as observed on
 * parts of several sizes: for operators split along something other than rows (multi-source BFS
 * splits its sources), where a part's cost is far from proportional to its size (a bit-parallel
 * search costs nearly as much for 16 sources as for 32) and the model's shape can be wrong in
 * either direction. Parts of each size are run from the first unit (a split's first part) and
 * up to the last (its last part): which units a part holds matters too (the last two sources of
 * a BFS on a FEM mesh cost a CGRA 523 us, the first two 795 us). A part costs what the profile
 * says at its size, linearly between the sizes seen, from its own end of the units.
 */
export interface CountProfile {
  /** Part sizes observed, ascending; the last is every unit. */
  readonly counts: readonly number[];
  /** Parts `[0, count)`. */
  readonly first: readonly Cost[];
  /** Parts `[units - count, units)`. */
  readonly last: readonly Cost[];
}

/** Linearly between `costs` at `counts` (flat beyond their ends). */
function between(counts: readonly number[], costs: readonly Cost[], count: number): Cost {
  if (count <= counts[0]!) return costs[0]!;
  for (let j = 1; j < counts.length; j++) {
    if (count <= counts[j]!) {
      const t = (count - counts[j - 1]!) / (counts[j]! - counts[j - 1]!);
      const a = costs[j - 1]!;
      const b = costs[j]!;
      return { seconds: a.seconds + t * (b.seconds - a.seconds), joules: a.joules + t * (b.joules - a.joules) };
    }
  }
  return costs[costs.length - 1]!;
}

/** The cost of units `[begin, end)` of `units`: from the first units' profile, the last units', or between the two for a middle part. */
export function countCost(p: CountProfile, begin: number, end: number, units: number): Cost {
  const count = end - begin;
  if (begin === 0) return between(p.counts, p.first, count);
  if (end === units) return between(p.counts, p.last, count);
  const a = between(p.counts, p.first, count);
  const b = between(p.counts, p.last, count);
  return { seconds: (a.seconds + b.seconds) / 2, joules: (a.joules + b.joules) / 2 };
}

const pairKey = (op: number, d: number): number => op * 64 + d;
const partKey = (op: number, d: number, b: number, e: number): string => `${op}/${d}/${b}/${e}`;

/** A part run exactly, and what it cost. */
type ObservedPart = { readonly begin: number; readonly end: number; readonly cost: Cost };

/** The median of `xs` (not empty). */
function middle(xs: number[]): number {
  xs.sort((a, b) => a - b);
  const h = xs.length >> 1;
  return xs.length % 2 ? xs[h]! : (xs[h - 1]! + xs[h]!) / 2;
}

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

/**
 * The model's costs corrected by what probes on this input observed. On a simulator (deterministic)
 * a part run exactly costs what it cost. On a real device its parts are probed at different
 * moments of a machine whose speed moves (the profile in one spell, a part the verification ran in
 * another), and pricing each part by its own moment made prices that do not grow with the work:
 * on a 2-vCPU VM a CPU SpMM of 4elt was priced at 198 us whole and 110 us for 96% of its rows, and
 * the 4% left to a simulated CGRA looked like a gain where the CPU alone was 2x faster. So a real
 * device's parts are priced from one shape (the row or count profile, else the model corrected by
 * the whole operator's probe) at one level: the median of what each part run exactly since the
 * shape was taken cost over what the shape says (those later readings were taken nearer the run,
 * most beside the pick's own parts), or the shape's own level where there are none.
 */
export class ProbedCostSource implements PlanningCosts {
  /** Device seconds and calls the probes took. */
  probeSeconds = 0;
  probeCalls = 0;
  constructor(
    readonly model: ModelCostSource,
    private readonly wholeRatios = new Map<number, Ratio>(),
    private readonly profiles = new Map<number, RowProfile>(),
    private readonly calls = new Map<number, CallCost>(),
    private readonly observedParts = new Map<string, Cost>(),
    private readonly countProfiles = new Map<number, CountProfile>(),
    /** Per operator and device, the parts run exactly since its shape was taken (a real device's level readings). */
    private readonly readings = new Map<number, Map<string, ObservedPart>>(),
    /** Per operator and real device, the level its shape is priced at (cleared by each new reading or shape). */
    private readonly levels = new Map<number, Cost>(),
  ) {}

  /** The same probes over another source of the model's predictions (the model as a run starts). */
  over(model: ModelCostSource): ProbedCostSource {
    return new ProbedCostSource(model, this.wholeRatios, this.profiles, this.calls, this.observedParts, this.countProfiles, this.readings, this.levels);
  }

  speedDrift(device: number): number | undefined {
    return this.model.speedDrift(device);
  }

  cost(op: BoundOp, device: number, begin: number, end: number): Cost {
    const real = !this.model.system.devices[device]!.simulated;
    if (!real) {
      const seen = this.observedParts.get(partKey(op.index, device, begin, end));
      if (seen) return seen;
    }
    const shape = this.shapeCost(op, device, begin, end);
    if (!real) return shape;
    const level = this.levelOf(op, device);
    return { seconds: shape.seconds * level.seconds, joules: shape.joules * level.joules };
  }

  /** A part's price from its operator's shape on the device: row profile, count profile, or the model corrected by the whole-operator probe. */
  private shapeCost(op: BoundOp, device: number, begin: number, end: number): Cost {
    const profiled = this.profileCost(op, device, begin, end);
    if (profiled) return profiled;
    const counted = this.countProfiles.get(pairKey(op.index, device));
    if (counted && end > begin) return countCost(counted, begin, end, op.units);
    const c = this.model.cost(op, device, begin, end);
    const r = this.wholeRatios.get(pairKey(op.index, device));
    return r ? corrected(c, r, this.call(op.index, device)) : c;
  }

  /** The level a real device's shape is priced at: the median of observed over shape across the readings since it was taken (1 with none). */
  private levelOf(op: BoundOp, device: number): Cost {
    const key = pairKey(op.index, device);
    let level = this.levels.get(key);
    if (!level) {
      const seconds: number[] = [];
      const joules: number[] = [];
      for (const p of this.readings.get(key)?.values() ?? []) {
        const shape = this.shapeCost(op, device, p.begin, p.end);
        if (shape.seconds > 0 && p.cost.seconds > 0) seconds.push(p.cost.seconds / shape.seconds);
        if (shape.joules > 0 && p.cost.joules > 0) joules.push(p.cost.joules / shape.joules);
      }
      level = { seconds: seconds.length ? middle(seconds) : 1, joules: joules.length ? middle(joules) : 1 };
      this.levels.set(key, level);
    }
    return level;
  }

  /** A part's cost from its operator's row profile on the device: the fixed cost plus its work in each cell at the cell's rate. */
  private profileCost(op: BoundOp, device: number, begin: number, end: number): Cost | undefined {
    const prof = this.profiles.get(pairKey(op.index, device));
    if (!prof || end <= begin) return undefined;
    const work = workOf(op, this.model.bound);
    let seconds = prof.fixed.seconds;
    let joules = prof.fixed.joules;
    for (let k = 0; k < prof.rates.length; k++) {
      const lo = Math.max(begin, prof.cells[k]!);
      const hi = Math.min(end, prof.cells[k + 1]!);
      if (hi <= lo) continue;
      const x = work(lo, hi);
      seconds += x * prof.rates[k]!.seconds;
      joules += x * prof.rates[k]!.joules;
    }
    return { seconds, joules };
  }

  setCountProfile(op: number, device: number, profile: CountProfile): void {
    this.countProfiles.set(pairKey(op, device), profile);
    this.newShape(op, device);
  }

  setProfile(op: number, device: number, profile: RowProfile): void {
    this.profiles.set(pairKey(op, device), profile);
    this.newShape(op, device);
  }

  /** What one call of the operator costs on the device, observed beside the model's figure, when it was probed. */
  call(op: number, device: number): CallCost | undefined {
    return this.calls.get(pairKey(op, device));
  }

  setCall(op: number, device: number, call: CallCost): void {
    this.calls.set(pairKey(op, device), call);
    this.levels.delete(pairKey(op, device));
  }

  /** A shape taken now: the readings before it are in it. */
  private newShape(op: number, device: number): void {
    this.readings.delete(pairKey(op, device));
    this.levels.delete(pairKey(op, device));
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
    this.newShape(op, device);
  }

  /** A part run exactly as it will run: its price on a simulator, and one reading of a real device's level. */
  setObservedPart(op: number, device: number, begin: number, end: number, c: Cost): void {
    const key = partKey(op, device, begin, end);
    this.observedParts.set(key, c);
    let parts = this.readings.get(pairKey(op, device));
    if (!parts) this.readings.set(pairKey(op, device), (parts = new Map()));
    parts.set(key, { begin, end, cost: c });
    this.levels.delete(pairKey(op, device));
  }

  hasPart(op: number, device: number, begin: number, end: number): boolean {
    const k = partKey(op, device, begin, end);
    return this.observedParts.has(k);
  }
}
