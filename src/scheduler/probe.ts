// Probes: the planner looks at this input on each device before it trusts the model. Each
// operator the model prices for a device is run there on the real sparse input (a small sample
// of its rows or sources when it is large: a few chunks spread over it; on a real device the
// whole of it unless it is predicted to be long), with written stand-ins for the dense values
// the plan computes before it (probe-operands.ts), and the model's
// prediction for the same units is scaled by what the device did. Splits are then refined the
// same way: the parts of a chosen split are probed, and the shares re-balanced from their
// observed times. The model keeps the shape of the costs (how they vary with a part's rows,
// copies, contention); the probes fix their level for this input, which no calibration on other
// inputs can. Dense operators on simulated devices are rooflines (nothing to probe); on the host
// CPU they are timed like any kernel.

import type { Device } from '../devices/device.js';
import { onHost } from '../devices/host-gate.js';
import type { System } from '../devices/system.js';
import type { BoundOp, BoundWorkload } from '../workloads/bind.js';
import { aboveCall, type CallCost, type Cost, type ProbedCostSource, type Ratio, workOf } from './probed-costs.js';
import { executePiece } from '../executor/piece.js';
import { recycleOperatorOutput } from '../executor/lifetimes.js';
import type { Value } from '../workloads/reference.js';
import { repeatInRounds } from '../executor/repeats.js';
import { hostTimingFor } from '../executor/host-timing.js';
import { madeEarlier } from '../executor/cache-turnover.js';
import { probeOperands } from './probe-operands.js';
import { measuredRanges } from './probe-ranges.js';
import { type Observed, type ProbeRange, type ProbeSet, probeSet, probeSpread, probeable } from './probe-sets.js';

export interface ProbeSettings {
  /**
   * Stored entries (or dense elements) one probe call may touch; larger operators are sampled
   * (on a real device only those predicted above `WHOLE_PROBE_SECONDS`: probe-ranges.ts). @default 200000
   */
  readonly maxEntries: number;
  /** Timed repeats on a real device (after a warm-up; more for short runs: executor/repeats.ts); the median counts. @default 3 */
  readonly repeats: number;
}

export const DEFAULT_PROBE: ProbeSettings = { maxEntries: 200_000, repeats: 3 };

/** Run units `[b, e)` of `op` on `device` once, as the executor runs a piece: the device's own time and energy. */
async function runOnce(bound: BoundWorkload, device: Device, op: BoundOp, x: readonly unknown[], b: number, e: number): Promise<Cost> {
  const r = await executePiece(bound, op, device, x as readonly Value[], b, e);
  // Timed into a buffer a run would find mapped, and given back for the next probe the same way.
  recycleOperatorOutput(op, r.output);
  return { seconds: r.seconds, joules: r.joules };
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
    const op = this.bound.ops[i]!;
    const predicted = this.costs.model.cost(op, d, begin, end).seconds;
    return this.measureRanges(i, d, measuredRanges(op, this.bound, this.system.devices[d]!, predicted, begin, end, this.settings.maxEntries));
  }

  /** Units `[b, e)` of operator i on device d as the device ran them (the median of repeats on a real device), and the spread seen. */
  private async observe(i: number, d: number, b: number, e: number): Promise<{ cost: Cost; spread: number }> {
    return (await this.observeAll(i, d, [[b, e]]))[0]!;
  }

  /**
   * Ranges of operator i on device d as the device ran them: once each on a simulator (it is
   * deterministic); on a real device timed together in rounds, as the oracle times pieces, so
   * that each is timed amid the others and not hot from its own last run (back to back, a CPU
   * part's repeats ran up to 2x faster than the same part does in a run), with the median of its
   * runs and their spread.
   */
  private async observeAll(i: number, d: number, ranges: readonly (readonly [number, number])[]): Promise<Observed[]> {
    return this.observeAcross(
      d,
      ranges.map(([b, e]) => ({ i, b, e })),
    );
  }

  /** Ranges of several operators on device d, as `observeAll` times one operator's: in the same rounds on a real device. */
  private async observeAcross(d: number, ranges: readonly ProbeRange[]): Promise<Observed[]> {
    const device = this.system.devices[d]!;
    this.signal?.throwIfAborted();
    const operandsOf = ranges.map(({ i }) => {
      let x = this.operands.get(i);
      if (!x) this.operands.set(i, (x = probeOperands(this.bound, this.bound.ops[i]!)));
      return x;
    });
    const runs = ranges.map(({ i, b, e }, k) => {
      const op = this.bound.ops[i]!;
      return (): Promise<Cost> => onHost(device, () => runOnce(this.bound, device, op, operandsOf[k]!, b, e));
    });
    let out: Observed[];
    if (device.simulated) {
      out = [];
      for (const run of runs) out.push({ cost: await run(), spread: 0 });
    } else {
      // On the host's cores each timed run starts from caches as a run leaves them, on the cores a run has (host-timing.ts).
      const handed = ranges.map(({ i }, k) => madeEarlier(this.bound, this.bound.ops[i]!, operandsOf[k]!));
      const timed = await repeatInRounds(runs, this.settings.repeats, {
        ...(this.signal ? { signal: this.signal } : {}),
        ...hostTimingFor(
          () => device,
          (k) => handed[k]!,
        ),
      });
      out = timed.map((rs) => {
        const sorted = [...rs].sort((p, q) => p.seconds - q.seconds);
        return { cost: sorted[sorted.length >> 1]!, spread: probeSpread(sorted.map((r) => r.seconds)) };
      });
    }
    for (const o of out) {
      this.costs.probeCalls++;
      this.costs.probeSeconds += o.cost.seconds;
    }
    return out;
  }

  /** Observed / predicted for the work above one call, over `ranges` of operator i on device d, all together. */
  async measureRanges(i: number, d: number, ranges: readonly (readonly [number, number])[]): Promise<Ratio> {
    return this.ratioOf(i, d, ranges, await this.observeAll(i, d, ranges));
  }

  /** Observed / predicted for the work above one call, from what `ranges` of operator i on device d took. */
  private ratioOf(i: number, d: number, ranges: readonly (readonly [number, number])[], seen: readonly Observed[]): Ratio {
    const op = this.bound.ops[i]!;
    const call = this.costs.call(i, d);
    let observed = 0;
    let joules = 0;
    let predicted = 0;
    let predictedJ = 0;
    let spread = 0;
    for (const [k, [b, e]] of ranges.entries()) {
      const o = seen[k]!;
      spread = Math.max(spread, o.spread);
      observed += o.cost.seconds;
      joules += o.cost.joules;
      const m = this.costs.model.cost(op, d, b, e);
      predicted += m.seconds;
      predictedJ += m.joules;
    }
    const n = ranges.length;
    const t = aboveCall(observed, n, call?.observed.seconds);
    const tm = aboveCall(predicted, n, call?.model.seconds);
    const j = aboveCall(joules, n, call?.observed.joules);
    const jm = aboveCall(predictedJ, n, call?.model.joules);
    return { time: tm > 0 && t > 0 ? t / tm : 1, energy: jm > 0 && j > 0 ? j / jm : 1, spread };
  }

  /**
   * One call's cost on the device, observed and as modelled: the lightest row of the operator
   * run alone (its work is negligible beside the call's), for operators whose parts are calls
   * over rows of a sparse operand.
   */
  private async probeCall(i: number, d: number): Promise<void> {
    const op = this.bound.ops[i]!;
    const rp = this.bound.values[op.operands[0]!]!.pattern?.rowPtr;
    if (!rp || op.units < 2) return;
    let u = 0;
    const scan = Math.min(op.units, 4096);
    for (let r = 1; r < scan; r++) if (Number(rp[r + 1]!) - Number(rp[r]!) < Number(rp[u + 1]!) - Number(rp[u]!)) u = r;
    const o = await this.observe(i, d, u, u + 1);
    const m = this.costs.model.cost(op, d, u, u + 1);
    this.costs.setCall(i, d, { observed: o.cost, model: { seconds: m.seconds, joules: m.joules } } satisfies CallCost);
  }

  /**
   * Probe every operator on every allowed device that can tell the model something: a sparse
   * operator split by rows chunk by chunk (a row profile: its parts are priced by where their
   * rows are), the others whole (or sampled when large).
   */
  async probeAll(allowed: readonly number[], runs: (op: BoundOp, device: number) => boolean): Promise<void> {
    // Each device's probes: on a simulator run at once (it is deterministic); on a real device
    // timed together in the same rounds, in the workload's order, as a run meets the operators and
    // as the oracle times a mapping's pieces. Probed one operator at a time, a short operator ran
    // its repeats back to back, hot from its own last run (a GCN's ReLU on cora probed at 8 us took
    // 11-19 us among the others; its SpMMs 20-50% more than their own profiles said).
    for (const d of allowed) {
      const device = this.system.devices[d]!;
      const sets: ProbeSet[] = [];
      for (const op of this.bound.ops) {
        if (!runs(op, d) || !probeable(op, device)) continue;
        const set = probeSet(this.bound, this.system, this.costs.model, this.settings.maxEntries, op, d);
        if (device.simulated) await this.finish(set, await this.observeAcross(d, set.ranges));
        else sets.push(set);
      }
      if (sets.length === 0) continue;
      const seen = await this.observeAcross(
        d,
        sets.flatMap((s) => s.ranges),
      );
      let at = 0;
      for (const set of sets) {
        await this.finish(set, seen.slice(at, at + set.ranges.length));
        at += set.ranges.length;
      }
    }
  }

  /** Write what a probe set saw (`seen`, one per range) into the cost source. */
  private async finish(set: ProbeSet, seen: readonly Observed[]): Promise<void> {
    const { op, d } = set;
    if (set.kind === 'count') this.countProfile(op, d, set.counts, set.ranges, seen);
    else if (set.kind === 'rows') await this.profile(op, d, set.chunks, seen);
    else
      this.costs.setWhole(
        op.index,
        d,
        this.ratioOf(
          op.index,
          d,
          set.ranges.map((r) => [r.b, r.e] as const),
          seen,
        ),
      );
  }

  /** An operator's count profile on device d: parts of each size in `counts` run from its first unit and up to its last. */
  private countProfile(op: BoundOp, d: number, counts: readonly number[], ranges: readonly ProbeRange[], observed: readonly Observed[]): void {
    const i = op.index;
    const n = op.units;
    const costs = observed.map((o, k) => {
      this.costs.setObservedPart(i, d, ranges[k]!.b, ranges[k]!.e, o.cost);
      return o.cost;
    });
    const first = costs.slice(0, counts.length);
    const last = [...costs.slice(counts.length), first[first.length - 1]!];
    const spread = Math.max(...observed.map((o) => o.spread));
    this.costs.setCountProfile(i, d, { counts, first, last });
    const whole = first[first.length - 1]!;
    const model = this.costs.model.cost(op, d, 0, n);
    this.costs.setWhole(i, d, {
      time: model.seconds > 0 ? whole.seconds / model.seconds : 1,
      energy: model.joules > 0 ? whole.joules / model.joules : 1,
      spread,
    });
  }

  /**
   * An operator's row profile on device d from `k` chunks of rows and the whole operator. Its
   * fixed cost per call comes from the chunks and the whole (k calls cost k - 1 fixed costs more
   * than one call over the same rows) where the chunks cover the operator, else from one call of
   * its lightest row; each cell's rate is its chunk's cost above the fixed cost, per unit of
   * work, scaled so that the profile prices the whole at what it took.
   */
  private async profile(op: BoundOp, d: number, chunks: readonly (readonly [number, number])[], observed: readonly Observed[]): Promise<void> {
    const i = op.index;
    const work = workOf(op, this.bound);
    const covering = chunks[0]![0] === 0 && chunks[chunks.length - 1]![1] === op.units && chunks.length > 1;
    const seen = observed.slice(0, chunks.length).map((o) => o.cost);
    const all = observed[chunks.length]!.cost;
    const spread = Math.max(...observed.map((o) => o.spread));
    let fixed: Cost;
    if (covering) {
      const sum = (f: (c: Cost) => number): number => seen.reduce((a, c) => a + f(c), 0);
      fixed = { seconds: (sum((c) => c.seconds) - all.seconds) / (chunks.length - 1), joules: (sum((c) => c.joules) - all.joules) / (chunks.length - 1) };
    } else {
      await this.probeCall(i, d);
      fixed = this.costs.call(i, d)!.observed;
    }
    // Never negative (noise), never most of the smallest chunk.
    const least = (f: (c: Cost) => number): number => Math.min(...seen.map(f));
    fixed = {
      seconds: Math.min(Math.max(0, fixed.seconds), 0.9 * least((c) => c.seconds)),
      joules: Math.min(Math.max(0, fixed.joules), 0.9 * least((c) => c.joules)),
    };
    const rates = chunks.map(([b, e], j) => {
      const w = Math.max(1, work(b, e));
      return { seconds: (seen[j]!.seconds - fixed.seconds) / w, joules: (seen[j]!.joules - fixed.joules) / w };
    });
    // Cells: each chunk stands for the rows nearer to it than to its neighbours.
    const cells = [0];
    for (let j = 1; j < chunks.length; j++) cells.push(Math.round((chunks[j - 1]![1] + chunks[j]![0]) / 2));
    cells.push(op.units);
    // The profile must price the whole operator at what it took: scale the rates to fit. (Covering
    // chunks fit by construction unless the fixed cost was clamped: on a device whose time barely
    // grows with rows the chunks' sum minus the whole says the fixed cost is nearly all of a chunk.)
    const fit = (f: (c: Cost) => number): number => {
      const above = rates.reduce((a, r, k) => a + f(r) * work(cells[k]!, cells[k + 1]!), 0);
      return above > 0 ? Math.max(0, f(all) - f(fixed)) / above : 1;
    };
    const ts = fit((c) => c.seconds);
    const js = fit((c) => c.joules);
    const fitted = rates.map((r) => ({ seconds: r.seconds * ts, joules: r.joules * js }));
    // What ran exactly is priced as it ran.
    for (const [j, [b, e]] of chunks.entries()) this.costs.setObservedPart(i, d, b, e, seen[j]!);
    this.costs.setObservedPart(i, d, 0, op.units, all);
    const mc = this.costs.model.cost(op, d, 0, 1);
    this.costs.setCall(i, d, { observed: fixed, model: { seconds: mc.seconds, joules: mc.joules } } satisfies CallCost);
    this.costs.setProfile(i, d, { cells, rates: fitted, fixed });
    // The whole operator's ratio, for explanations and margins: its profile's price over the model's.
    const priced = this.costs.cost(op, d, 0, op.units);
    const model = this.costs.model.cost(op, d, 0, op.units);
    this.costs.setWhole(i, d, {
      time: aboveCall(priced.seconds, 1, fixed.seconds) / aboveCall(model.seconds, 1, mc.seconds),
      energy: aboveCall(priced.joules, 1, fixed.joules) / aboveCall(model.joules, 1, mc.joules),
      spread,
    });
  }

  /**
   * Probe parts of operator i that are to be compared with one another: those on a real device
   * run together in rounds (a paired comparison: a busy spell falls on all of them alike), each
   * priced as it ran, replacing what an earlier probe saw of it alone; the others as `probePart`.
   */
  async probePartsTogether(i: number, parts: readonly { readonly device: number; readonly begin: number; readonly end: number }[]): Promise<void> {
    const op = this.bound.ops[i]!;
    const byDevice = new Map<number, [number, number][]>();
    for (const p of parts) {
      const device = this.system.devices[p.device]!;
      if (!probeable(op, device) || p.end <= p.begin) continue;
      if (device.simulated) {
        await this.probePart(i, p.device, p.begin, p.end);
        continue;
      }
      let list = byDevice.get(p.device);
      if (!list) byDevice.set(p.device, (list = []));
      if (!list.some(([b, e]) => b === p.begin && e === p.end)) list.push([p.begin, p.end]);
    }
    for (const [d, ranges] of byDevice) {
      const seen = await this.observeAll(i, d, ranges);
      ranges.forEach(([b, e], k) => this.costs.setObservedPart(i, d, b, e, seen[k]!.cost));
    }
  }

  /** Probe each of `parts` of operator i where it is not priced yet (`probePart`). */
  async probeParts(i: number, parts: readonly { readonly device: number; readonly begin: number; readonly end: number }[]): Promise<void> {
    for (const p of parts) await this.probePart(i, p.device, p.begin, p.end);
  }

  /**
   * Probe one part where it is: run exactly, its cost is its price. Never sampled: a part runs no
   * longer than its operator will in the plan, and a sample's rate scaled to a large part priced
   * a simulated GPU's 70% of a 50,000-row SpMV at 4x what it took.
   */
  async probePart(i: number, d: number, begin: number, end: number): Promise<void> {
    const op = this.bound.ops[i]!;
    if (this.costs.hasPart(i, d, begin, end) || !probeable(op, this.system.devices[d]!)) return;
    this.costs.setObservedPart(i, d, begin, end, (await this.observe(i, d, begin, end)).cost);
  }
}
