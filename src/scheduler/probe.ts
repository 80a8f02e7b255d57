// Probes: the planner looks at this input on each device before it trusts the model. Each
// operator the model prices for a device is run there on the real sparse input (a small sample
// of its rows or sources when it is large: a few chunks spread over it), and the model's
// prediction for the same units is scaled by what the device did. Splits are then refined the
// same way: the parts of a chosen split are probed, and the shares re-balanced from their
// observed times. The model keeps the shape of the costs (how they vary with a part's rows,
// copies, contention); the probes fix their level for this input, which no calibration on other
// inputs can. Dense operators on simulated devices are rooflines (nothing to probe); on the host
// CPU they are timed like any kernel.

import { CsrMatrix } from '../data/csr.js';
import { DenseMatrix } from '../data/dense.js';
import type { Device, Operator } from '../devices/device.js';
import { onHost } from '../devices/host-gate.js';
import type { System } from '../devices/system.js';
import type { BoundOp, BoundWorkload } from '../workloads/bind.js';
import { computeHostDense } from '../workloads/host-dense.js';
import type { ModelCostSource, OperatorEstimate, PlanningCosts } from './costs.js';
import { denseRates } from '../cost/dense-cost.js';

export interface ProbeSettings {
  /** Stored entries (or dense elements) one probe call may touch; larger operators are sampled. @default 200000 */
  readonly maxEntries: number;
  /** Timed repeats on a real device (after a warm-up); the median counts. @default 3 */
  readonly repeats: number;
}

export const DEFAULT_PROBE: ProbeSettings = { maxEntries: 200_000, repeats: 3 };

type Cost = { readonly seconds: number; readonly joules: number };
/** Observed over predicted, for time and energy, and the relative spread of the observations. */
interface Ratio {
  readonly time: number;
  readonly energy: number;
  readonly spread: number;
}
/**
 * How an operator's cost on one device departs from the model along its rows: a ratio per chunk
 * of rows, each chunk standing for the cell of rows nearest to it, so a part's ratio is the
 * chunks' ratios weighted by how much of the part's work falls in each cell.
 */
interface RowProfile {
  /** Cell boundaries in units: cell k is [cells[k], cells[k + 1]). */
  readonly cells: readonly number[];
  readonly ratios: readonly Ratio[];
}

const pairKey = (op: number, d: number): number => op * 64 + d;
const partKey = (op: number, d: number, b: number, e: number): string => `${op}/${d}/${b}/${e}`;

/** The model's costs scaled by what probes on this input observed. */
export class ProbedCostSource implements PlanningCosts {
  /** Device seconds and calls the probes took. */
  probeSeconds = 0;
  probeCalls = 0;

  constructor(
    readonly model: ModelCostSource,
    private readonly wholeRatios = new Map<number, Ratio>(),
    private readonly parts = new Map<string, Ratio>(),
    private readonly profiles = new Map<number, RowProfile>(),
  ) {}

  /** The same probes over another source of the model's predictions (the model as a run starts). */
  over(model: ModelCostSource): ProbedCostSource {
    return new ProbedCostSource(model, this.wholeRatios, this.parts, this.profiles);
  }

  cost(op: BoundOp, device: number, begin: number, end: number): Cost {
    const c = this.model.cost(op, device, begin, end);
    const r = this.parts.get(partKey(op.index, device, begin, end)) ?? this.profileRatio(op, device, begin, end) ?? this.wholeRatios.get(pairKey(op.index, device));
    return r ? { seconds: c.seconds * r.time, joules: c.joules * r.energy } : c;
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

  /** Whether this piece (or its operator on this device) was probed, and the spread of what was seen. */
  probed(op: number, device: number): Ratio | undefined {
    return this.wholeRatios.get(pairKey(op, device));
  }

  /** The whole operator on one device: the model's estimate at the level the probe saw, its uncertainty the probe's spread. */
  whole(op: BoundOp, device: number): OperatorEstimate {
    const e = this.model.whole(op, device);
    const r = this.wholeRatios.get(pairKey(op.index, device));
    if (!r) return e;
    return { ...e, seconds: e.seconds * r.time, joules: e.joules * r.energy, basis: 'probed', uncertainty: r.spread };
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

/** Whether a probe of `op` on `device` can tell the model anything: a kernel the device runs, or host work timed on the host. */
export function probeable(op: BoundOp, device: Device): boolean {
  if ((device.capabilities.operators as readonly string[]).includes(op.kind) && op.kind !== 'sddmm') return true;
  return !device.simulated && device.memorySpace === 'host';
}

/** The work in units `[b, e)` of an operator: stored entries plus rows for a sparse operand split by rows, else elements. */
function workOf(op: BoundOp, bound: BoundWorkload): (b: number, e: number) => number {
  const lead = bound.values[op.operands[0]!]!;
  const rp = op.split === 'rows' && lead.kind === 'sparse' && lead.pattern ? lead.pattern.rowPtr : undefined;
  const entriesPerUnit = rp ? 0 : Math.max(1, bound.values[op.output]!.entries / Math.max(1, op.units));
  return (b, e) => (rp ? Number(rp[e]!) - Number(rp[b]!) + (e - b) : (e - b) * entriesPerUnit);
}

/** Whether an operator's cost varies along its rows in ways worth a profile: a sparse operand split by rows. */
function profiled(op: BoundOp, bound: BoundWorkload): boolean {
  return op.split === 'rows' && bound.values[op.operands[0]!]!.kind === 'sparse' && op.units >= 8;
}

/** Chunks of rows for an operator's profile: `k` covering it when it is small, else `k` samples spread over it. */
export function profileChunks(op: BoundOp, bound: BoundWorkload, maxEntries: number, k = 8): [number, number][] {
  const work = workOf(op, bound);
  const units = op.units;
  const out: [number, number][] = [];
  if (work(0, units) <= maxEntries) {
    // Covering chunks of equal work.
    const total = work(0, units);
    let b = 0;
    for (let j = 1; j <= k && b < units; j++) {
      let e = j === k ? units : b + 1;
      while (e < units && work(0, e) < (total * j) / k) e++;
      if (e > b) out.push([b, e]);
      b = e;
    }
    return out;
  }
  return probeRanges(op, bound, 0, units, maxEntries, k);
}

/** Ranges of units to run for a probe of `[begin, end)`: all of it when small, else a few chunks spread over it. */
export function probeRanges(op: BoundOp, bound: BoundWorkload, begin: number, end: number, maxEntries: number, chunks = 4): [number, number][] {
  const work = workOf(op, bound);
  if (op.split === 'none' || work(begin, end) <= maxEntries) return [[begin, end]];
  const per = maxEntries / chunks;
  const out: [number, number][] = [];
  for (let k = 0; k < chunks; k++) {
    let b = begin + Math.floor(((k + 0.5) / chunks) * (end - begin) - 0.5);
    b = Math.max(begin, Math.min(end - 1, b));
    let e = b + 1;
    while (e < end && work(b, e + 1) <= per) e++;
    if (out.length && b < out[out.length - 1]![1]) b = out[out.length - 1]![1];
    if (b < e) out.push([b, e]);
  }
  return out.length ? out : [[begin, end]];
}

/** Operands of the right shapes for a probe: the sparse input itself, dense zeros where the data does not exist yet. */
function operandsOf(bound: BoundWorkload, op: BoundOp): unknown[] {
  return op.operands.map((v) => {
    const val = bound.values[v]!;
    if (val.data) return val.data;
    if (val.kind === 'sparse') return val.pattern!;
    return new DenseMatrix(val.rows, val.cols, val.precision === 'f32' ? new Float32Array(val.rows * val.cols) : new Float64Array(val.rows * val.cols));
  });
}

/** Run units `[b, e)` of `op` on `device` once: the device's own time and energy. */
async function runOnce(device: Device, op: BoundOp, x: readonly unknown[], b: number, e: number, full: boolean): Promise<Cost> {
  if ((device.capabilities.operators as readonly string[]).includes(op.kind) && op.kind !== 'sddmm') {
    const range = full ? undefined : ([b, e] as const);
    let r;
    if (op.kind === 'spmm' || op.kind === 'spmv') r = await device.run({ kind: op.kind } as Operator & { kind: 'spmm' }, { a: x[0] as CsrMatrix, x: x[1] as DenseMatrix }, range);
    else if (op.kind === 'bfs') r = await device.run({ kind: 'bfs', source: op.source! }, { graph: x[0] as CsrMatrix });
    else r = await device.run({ kind: 'msbfs', sources: op.sources! }, { graph: x[0] as CsrMatrix }, range);
    return { seconds: r.seconds, joules: r.joules };
  }
  // Host work timed on the host CPU (the same kernels the executor runs).
  const { seconds } = await computeHostDense(op, x, [b, e], 'native');
  // Energy as the executor reports host work: the dense rates' busy power.
  return { seconds, joules: seconds * denseRates(device).busyWatts };
}

/** The prober of one planning problem: runs probes and writes what they saw into its cost source. */
export class Prober {
  private readonly operands = new Map<number, unknown[]>();

  constructor(
    readonly bound: BoundWorkload,
    readonly system: System,
    readonly costs: ProbedCostSource,
    readonly settings: ProbeSettings = DEFAULT_PROBE,
    readonly signal?: AbortSignal,
  ) {}

  /** Observed / predicted over the probe ranges of `[begin, end)` of operator i on device d. */
  async measure(i: number, d: number, begin: number, end: number): Promise<Ratio> {
    return this.measureRanges(i, d, probeRanges(this.bound.ops[i]!, this.bound, begin, end, this.settings.maxEntries));
  }

  /** Observed / predicted over `ranges` of operator i on device d, all together. */
  async measureRanges(i: number, d: number, ranges: readonly (readonly [number, number])[]): Promise<Ratio> {
    const op = this.bound.ops[i]!;
    const device = this.system.devices[d]!;
    let x = this.operands.get(i);
    if (!x) this.operands.set(i, (x = operandsOf(this.bound, op)));
    let observed = 0;
    let joules = 0;
    let predicted = 0;
    let predictedJ = 0;
    let spread = 0;
    for (const [b, e] of ranges) {
      this.signal?.throwIfAborted();
      const full = b === 0 && e >= op.units;
      const once = (): Promise<Cost> => onHost(device, () => runOnce(device, op, x!, b, e, full));
      let c: Cost;
      if (device.simulated) {
        c = await once();
      } else {
        await once();
        const runs: Cost[] = [];
        for (let k = 0; k < this.settings.repeats; k++) runs.push(await once());
        runs.sort((p, q) => p.seconds - q.seconds);
        c = runs[runs.length >> 1]!;
        const lo = runs[0]!.seconds;
        const hi = runs[runs.length - 1]!.seconds;
        if (c.seconds > 0) spread = Math.max(spread, (hi - lo) / c.seconds / 2);
      }
      this.costs.probeCalls++;
      this.costs.probeSeconds += c.seconds;
      observed += c.seconds;
      joules += c.joules;
      const m = this.costs.model.cost(op, d, b, e);
      predicted += m.seconds;
      predictedJ += m.joules;
    }
    return {
      time: predicted > 0 && observed > 0 ? observed / predicted : 1,
      energy: predictedJ > 0 && joules > 0 ? joules / predictedJ : 1,
      spread,
    };
  }

  /**
   * Probe every operator on every allowed device that can tell the model something: a sparse
   * operator split by rows chunk by chunk (a row profile: its parts are priced by where their
   * rows are), the others whole (or sampled when large).
   */
  async probeAll(allowed: readonly number[], runs: (op: BoundOp, device: number) => boolean): Promise<void> {
    for (const op of this.bound.ops) {
      for (const d of allowed) {
        const device = this.system.devices[d]!;
        if (!runs(op, d) || !probeable(op, device)) continue;
        // As many chunks as keep each one's predicted work well above a call's fixed cost (else the
        // chunks would measure calls, not rows), at most eight.
        const whole = this.costs.model.cost(op, d, 0, Math.max(op.units, 1)).seconds;
        const call = this.costs.model.cost(op, d, 0, 1).seconds;
        const k = profiled(op, this.bound) ? Math.max(1, Math.min(8, Math.floor(whole / Math.max(8 * call, 1e-15)))) : 1;
        if (k < 2) {
          this.costs.setWhole(op.index, d, await this.measure(op.index, d, 0, Math.max(op.units, 1)));
          continue;
        }
        const chunks = profileChunks(op, this.bound, this.settings.maxEntries, k);
        const ratios: Ratio[] = [];
        for (const c of chunks) ratios.push(await this.measureRanges(op.index, d, [c]));
        // Cells: each chunk stands for the rows nearer to it than to its neighbours.
        const cells = [0];
        for (let k = 1; k < chunks.length; k++) cells.push(Math.round((chunks[k - 1]![1] + chunks[k]![0]) / 2));
        cells.push(op.units);
        this.costs.setProfile(op.index, d, { cells, ratios });
        // The whole operator's ratio, for explanations and margins: the profile over all rows.
        const probed = this.costs.cost(op, d, 0, op.units);
        const model = this.costs.model.cost(op, d, 0, op.units);
        const spread = Math.max(...ratios.map((r) => r.spread));
        this.costs.setWhole(op.index, d, { time: model.seconds > 0 ? probed.seconds / model.seconds : 1, energy: model.joules > 0 ? probed.joules / model.joules : 1, spread });
      }
    }
  }

  /** Probe one part exactly where it is (sampled when large) and keep its own ratio. */
  async probePart(i: number, d: number, begin: number, end: number): Promise<void> {
    const op = this.bound.ops[i]!;
    if (this.costs.hasPart(i, d, begin, end) || !probeable(op, this.system.devices[d]!)) return;
    this.costs.setPart(i, d, begin, end, await this.measure(i, d, begin, end));
  }
}
