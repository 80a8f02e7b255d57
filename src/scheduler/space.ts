// The mapping space: for every operator, the ways it may run — on one device, or split by row
// (or source) ranges across two or three devices at several ratios, balanced by nonzeros
// (co-execution as in POAS) — and a table of what each part costs. A mapping is one choice per
// operator; the evaluator turns it into time and energy.

import type { Device } from '../devices/device.js';
import type { BoundOp, BoundWorkload } from '../workloads/bind.js';
import { operatorKind } from '../operators/registry.js';

/** One piece of a choice: a device and the units (rows or sources) `[begin, end)` it computes. */
export interface Part {
  readonly device: number;
  readonly begin: number;
  readonly end: number;
  /** Share of the operator's work: nonzeros for a sparse operand split by rows, else rows or sources. */
  readonly fraction: number;
  /** Share of the rows (or sources): what the part reads of row-sliced dense operands and writes. */
  readonly rowFraction: number;
}

/** One way to run an operator. */
export interface Choice {
  readonly parts: readonly Part[];
  /** Short form, e.g. `gpu`, `gpu 60% + cgra 40%`. */
  readonly label: string;
}

export interface SpaceOptions {
  /** Split operators across devices. @default true */
  readonly splits?: boolean;
  /** Most devices one operator is split across (1 to 3). @default 3 */
  readonly maxSplit?: number;
  /** Shares of the first device in a two-way split (nonzeros for sparse operators). @default [0.25, 0.5, 0.75] */
  readonly splitRatios?: readonly number[];
}

/**
 * Can `device` run operator `op` at all (capabilities and precision)? Operators without a device
 * kernel (GEMM, element-wise, reductions, SDDMM) are computed on the host: timed there when the
 * device is the host's own CPU, priced by the device's roofline when it is a simulator. A real
 * device with memory of its own (a CUDA GPU) is offered them only where it has kernels of its own
 * for them (`capabilities.denseKernels`), so no host work is ever timed and labelled as that device's.
 */
export function canRun(device: Device, op: BoundOp, bound: BoundWorkload): boolean {
  const out = bound.values[op.output]!;
  const p = out.kind === 'depths' ? undefined : out.precision;
  if (p && !device.capabilities.precisions.includes(p)) return false;
  if ((device.capabilities.operators as readonly string[]).includes(op.kind)) return true;
  const kind = operatorKind(op.kind, 'canRun');
  if (kind.execution.on === 'device') return false;
  if (device.capabilities.denseKernels?.includes(op.kind)) return true;
  if (kind.runsOn && !kind.runsOn(device)) return false;
  return device.simulated || device.memorySpace === 'host';
}

/**
 * Cumulative work per unit of an operator, so a share of the work maps to a unit boundary: row
 * pointers for sparse row splits (balanced by nonzeros), identity for rows and sources.
 */
function boundaryAt(op: BoundOp, bound: BoundWorkload, share: number): number {
  if (share <= 0) return 0;
  if (share >= 1) return op.units;
  const lead = bound.values[op.operands[0]!]!;
  if (op.split === 'rows' && lead.kind === 'sparse' && lead.pattern) {
    const rp = lead.pattern.rowPtr;
    const target = share * Number(rp[op.units]!);
    let lo = 0;
    let hi = op.units;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (Number(rp[mid]!) < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
  return Math.round(share * op.units);
}

function fractionOf(op: BoundOp, bound: BoundWorkload, begin: number, end: number): number {
  const lead = bound.values[op.operands[0]!]!;
  if (op.split === 'rows' && lead.kind === 'sparse' && lead.pattern) {
    const rp = lead.pattern.rowPtr;
    const nnz = Number(rp[op.units]!);
    return nnz === 0 ? (end - begin) / op.units : (Number(rp[end]!) - Number(rp[begin]!)) / nnz;
  }
  return op.units === 0 ? 1 : (end - begin) / op.units;
}

/** Whether an operator may be split across devices under these options. */
export function splittable(op: BoundOp, options: SpaceOptions): boolean {
  return (options.splits ?? true) && op.split !== 'none' && operatorKind(op.kind, 'splittable').splittable && (options.maxSplit ?? 3) >= 2;
}

/**
 * The choice that gives devices `devs` consecutive shares `shares` of the operator's work (by
 * nonzeros for a sparse operand split by rows, else by units), or null when a part would be
 * empty (the same as a smaller split).
 */
export function splitChoice(op: BoundOp, bound: BoundWorkload, names: readonly string[], devs: readonly number[], shares: readonly number[]): Choice | null {
  let begin = 0;
  let acc = 0;
  const parts: Part[] = [];
  for (let j = 0; j < devs.length; j++) {
    acc += shares[j]!;
    const end = j === devs.length - 1 ? op.units : boundaryAt(op, bound, acc);
    if (end <= begin) return null;
    parts.push({ device: devs[j]!, begin, end, fraction: fractionOf(op, bound, begin, end), rowFraction: (end - begin) / op.units });
    begin = end;
  }
  return { parts, label: parts.map((p) => `${names[p.device]} ${shareText(p.fraction)}`).join(' + ') };
}

/** A part's share as a label shows it: a part that holds work is never "0%" (nor "100%" beside another). */
function shareText(fraction: number): string {
  const pct = Math.round(fraction * 100);
  if (pct === 0) return '<1%';
  if (pct === 100) return '>99%';
  return `${pct}%`;
}

/** A choice's identity: its parts' devices and boundaries (two shares that round to the same rows are one choice). */
export function choiceKey(choice: Choice): string {
  return choice.parts.map((p) => `${p.device}:${p.begin}`).join(',');
}

/** The choice that runs the whole operator on device d. */
export function wholeChoice(op: BoundOp, d: number, names: readonly string[]): Choice {
  return { parts: [{ device: d, begin: 0, end: Math.max(op.units, 1), fraction: 1, rowFraction: 1 }], label: names[d]! };
}

/** Where costs come from: the cost model (planning) or executions (the oracle). */
export interface CostSource {
  /** Time and energy of units `[begin, end)` of `op` on device `device`. */
  cost(op: BoundOp, device: number, begin: number, end: number): { readonly seconds: number; readonly joules: number };
}

/**
 * The choices flattened into typed arrays, with a cost per part, for an evaluator that runs a
 * million times a second.
 */
export class CostTable {
  /** First global choice id of each operator. */
  readonly choiceBase: Int32Array;
  readonly choiceCount: Int32Array;
  /** Per global choice: first part and part count. */
  readonly partBegin: Int32Array;
  readonly partCount: Int32Array;
  readonly partDevice: Int32Array;
  readonly partSeconds: Float64Array;
  readonly partJoules: Float64Array;
  readonly partFraction: Float64Array;
  readonly partRowFraction: Float64Array;
  /**
   * Operators already computed when the schedule starts (1), as in re-planning the rest of a run
   * on a busy machine: their outputs are where they were made from time 0 on, and they take no
   * device or link time (else they would be placed after the machine's backlog, with them every
   * operator that reads them).
   */
  settled: Uint8Array | undefined;

  constructor(
    readonly choices: readonly (readonly Choice[])[],
    readonly ops: readonly BoundOp[],
    source: CostSource,
  ) {
    const n = choices.length;
    this.choiceBase = new Int32Array(n);
    this.choiceCount = new Int32Array(n);
    let total = 0;
    let parts = 0;
    choices.forEach((c, i) => {
      this.choiceBase[i] = total;
      this.choiceCount[i] = c.length;
      total += c.length;
      for (const ch of c) parts += ch.parts.length;
    });
    this.partBegin = new Int32Array(total);
    this.partCount = new Int32Array(total);
    this.partDevice = new Int32Array(parts);
    this.partSeconds = new Float64Array(parts);
    this.partJoules = new Float64Array(parts);
    this.partFraction = new Float64Array(parts);
    this.partRowFraction = new Float64Array(parts);
    let g = 0;
    let p = 0;
    choices.forEach((c, i) => {
      for (const ch of c) {
        this.partBegin[g] = p;
        this.partCount[g] = ch.parts.length;
        for (const part of ch.parts) {
          const cost = source.cost(ops[i]!, part.device, part.begin, part.end);
          this.partDevice[p] = part.device;
          this.partSeconds[p] = cost.seconds;
          this.partJoules[p] = cost.joules;
          this.partFraction[p] = part.fraction;
          this.partRowFraction[p] = part.rowFraction;
          p++;
        }
        g++;
      }
    });
  }

  /**
   * The seconds operator `op` asks of the machine wherever it runs: its fastest way (a split's
   * slowest part), without copies or queues. It does not depend on where a busy machine sends it,
   * so the service charges a tenant's fair share by it (fair-scheduler.ts, interleaver.ts).
   */
  operatorDemand(op: number): number {
    if (this.settled?.[op]) return 0;
    let best = Infinity;
    for (let g = this.choiceBase[op]!, end = g + this.choiceCount[op]!; g < end; g++) {
      let slowest = 0;
      for (let p = this.partBegin[g]!, pe = p + this.partCount[g]!; p < pe; p++) slowest = Math.max(slowest, this.partSeconds[p]!);
      best = Math.min(best, slowest);
    }
    return Number.isFinite(best) ? best : 0;
  }

  /** What every operator asks of the machine (`operatorDemand`), summed. */
  demandSeconds(): number {
    let total = 0;
    for (let op = 0; op < this.choiceCount.length; op++) total += this.operatorDemand(op);
    return total;
  }

  /** Choices per operator, as the search's gene cardinalities. */
  get cardinality(): Int32Array {
    return Int32Array.from(this.choiceCount);
  }
}
