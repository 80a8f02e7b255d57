// Costs read off executions, one per distinct piece of work (operator x device x unit range),
// each run through the executor's own piece runner with real data. A piece on a real device is
// run once to warm up and then `repeats` times (more when short: executor/repeats.ts); its median
// is its cost and its quartiles its spread. Real pieces are timed in rounds, each round running
// every piece once, so that a busy spell on the machine falls on all of them alike: timed one
// after another, the pieces caught in it were priced up to 3x their neighbours, and a split 4
// points from the best looked 10x worse. A simulator is deterministic, so its pieces run once, and the figure is kept across
// oracles (the same device profile on the same sparse input gives the same simulated cost in
// every system of a suite). No cost-model prediction enters anything here.

import { CsrMatrix } from '../data/csr.js';
import type { Device } from '../devices/device.js';
import type { System } from '../devices/system.js';
import { type PieceResult, type PieceSource, runPiece } from '../executor/piece.js';
import { recycleOperatorOutput } from '../executor/lifetimes.js';
import { repeatInRounds } from '../executor/repeats.js';
import { hostTimingFor } from '../executor/host-timing.js';
import { madeEarlier } from '../executor/cache-turnover.js';
import type { CostSource } from '../scheduler/space.js';
import type { BoundOp, BoundWorkload } from '../workloads/bind.js';
import type { Value } from '../workloads/reference.js';

type Cost = { readonly seconds: number; readonly joules: number };

/** One piece's measured cost: the median of its repeats, and its spread (first and third quartiles). */
export interface MeasuredCost extends Cost {
  readonly lo: Cost;
  readonly hi: Cost;
  readonly basis: PieceSource;
  /** Timed repeats (1 for a simulator). */
  readonly repeats: number;
}

/** A piece of work: units `[begin, end)` of operator `op` on device `device` (a system index). */
export interface PieceOfWork {
  readonly op: number;
  readonly device: number;
  readonly begin: number;
  readonly end: number;
}

export const pieceKey = (op: number, d: number, b: number, e: number): string => `${op}/${d}/${b}/${e}`;

/** Costs of executed pieces, looked up by operator, device and range. */
export class MeasuredCostSource implements CostSource {
  private readonly costs = new Map<string, MeasuredCost>();

  cost(op: BoundOp, device: number, begin: number, end: number): Cost {
    return this.get(op.index, device, begin, end);
  }

  get(op: number, device: number, begin: number, end: number): MeasuredCost {
    const c = this.costs.get(pieceKey(op, device, begin, end));
    if (!c) throw new Error(`MeasuredCostSource: operator ${op} on device ${device} [${begin}, ${end}) was not executed`);
    return c;
  }

  has(p: PieceOfWork): boolean {
    return this.costs.has(pieceKey(p.op, p.device, p.begin, p.end));
  }

  set(p: PieceOfWork, c: MeasuredCost): void {
    this.costs.set(pieceKey(p.op, p.device, p.begin, p.end), c);
  }

  /** The same pieces at one end of their spread: `lo` (first quartile) or `hi` (third). */
  quantile(which: 'lo' | 'hi'): CostSource {
    return { cost: (op, d, b, e) => this.get(op.index, d, b, e)[which] };
  }

  /** How many pieces were measured on a clock, simulated, or priced by a roofline. */
  tally(): Record<PieceSource, number> {
    const out: Record<PieceSource, number> = { measured: 0, simulated: 0, roofline: 0 };
    for (const c of this.costs.values()) out[c.basis]++;
    return out;
  }

  get size(): number {
    return this.costs.size;
  }
}

// Simulated costs kept across oracles: by sparse operand (so they go when the input does), then by
// device profile and the piece's shape.
const simulated = new WeakMap<object, Map<string, MeasuredCost>>();
const deviceIds = new WeakMap<Device, string>();
const noSparseOperand = {};

function deviceId(device: Device): string {
  let id = deviceIds.get(device);
  if (id === undefined) {
    const params = Object.entries(device.spec.params)
      .map(([k, v]) => `${k}=${v.value}`)
      .join(',');
    id = `${device.backend}|${device.spec.name}|${params}|${device.memorySpace === 'host' ? 'host' : 'own'}`;
    deviceIds.set(device, id);
  }
  return id;
}

/** What a simulated piece's cost depends on: the device, the operator and its parameters, the operands' shapes. */
function shapeKey(bound: BoundWorkload, op: BoundOp, device: Device, begin: number, end: number): string {
  const operands = op.operands.map((v) => {
    const val = bound.values[v]!;
    return val.kind === 'sparse' ? 'S' : `${val.kind}${val.rows}x${val.cols}${val.kind === 'depths' ? '' : val.precision}`;
  });
  const params = [op.scale, op.shift, op.reduceOp, op.source, op.sources ? Array.from(op.sources).join(';') : undefined].join('|');
  return `${deviceId(device)}|${op.kind}|${operands.join(',')}|${params}|${op.flops}|${op.bytes}|${begin}-${end}`;
}

function sparseOperand(bound: BoundWorkload, op: BoundOp): object {
  for (const v of op.operands) {
    const val = bound.values[v]!;
    if (val.kind === 'sparse' && val.pattern instanceof CsrMatrix) return val.pattern;
  }
  return noSparseOperand;
}

/** The middle of sorted samples, and the first and third quartiles (nearest rank). */
function quartiles(sorted: readonly number[]): [number, number, number] {
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))]!;
  return [at(0.25), at(0.5), at(0.75)];
}

export interface MeasureOptions {
  /** Timed repetitions of each piece on a real device, after one warm-up run (more for short pieces: executor/repeats.ts). @default 5 */
  readonly repeats?: number;
  readonly signal?: AbortSignal;
  /** Called after each distinct piece is executed, with how many of how many are done. */
  readonly onProgress?: (done: number, total: number, label: string) => void;
}

/** Each real piece's timed runs in round order (`samples[r]` ran in round r beside the other pieces' r-th runs), by `pieceKey`. */
export type RoundSamples = ReadonlyMap<string, readonly Cost[]>;

/**
 * Execute every piece not measured yet (in the given order) and add its cost to `source`.
 * `values` are the workload's reference values (the operators' real inputs). Returns the real
 * pieces' runs round by round, for comparisons paired by round.
 */
export async function measurePieces(
  bound: BoundWorkload,
  system: System,
  values: readonly Value[],
  pieces: readonly PieceOfWork[],
  source: MeasuredCostSource,
  options: MeasureOptions = {},
): Promise<RoundSamples> {
  const repeats = options.repeats ?? 5;
  const seen = new Set<string>();
  const todo = pieces.filter((p) => {
    const k = pieceKey(p.op, p.device, p.begin, p.end);
    if (seen.has(k) || source.has(p)) return false;
    seen.add(k);
    return true;
  });
  let done = 0;
  const runOf = (p: PieceOfWork): (() => Promise<PieceRun>) => {
    const op = bound.ops[p.op]!;
    const x = op.operands.map((v) => values[v]!);
    // Each run's output is given back for the next and only its cost is kept, so the repeats are
    // timed as repeated runs of a plan run them: into buffers already mapped (executor/lifetimes.ts).
    return async () => {
      const { output, ...cost } = await runPiece(bound, op, system.devices[p.device]!, x, p.begin, p.end, options.signal);
      recycleOperatorOutput(op, output);
      return cost;
    };
  };
  const finish = (p: PieceOfWork, cost: MeasuredCost): void => {
    source.set(p, cost);
    options.onProgress?.(++done, todo.length, `${bound.ops[p.op]!.id} on ${system.devices[p.device]!.name} [${p.begin}, ${p.end})`);
  };
  const real: PieceOfWork[] = [];
  for (const p of todo) {
    options.signal?.throwIfAborted();
    const op = bound.ops[p.op]!;
    const device = system.devices[p.device]!;
    if (!device.simulated) {
      real.push(p);
      continue;
    }
    const scope = sparseOperand(bound, op);
    let byShape = simulated.get(scope);
    if (!byShape) simulated.set(scope, (byShape = new Map()));
    const key = shapeKey(bound, op, device, p.begin, p.end);
    let cost = byShape.get(key);
    if (!cost) {
      const r = await runOf(p)();
      const c = { seconds: r.seconds, joules: r.joules };
      cost = { ...c, lo: c, hi: c, basis: r.source, repeats: 1 };
      byShape.set(key, cost);
    }
    finish(p, cost);
  }
  // Real pieces timed together in rounds (executor/repeats.ts), those on the host's cores each after
  // a turnover of its caches and on the cores a run has (executor/host-timing.ts).
  const handed = real.map((p) => {
    const op = bound.ops[p.op]!;
    return madeEarlier(
      bound,
      op,
      op.operands.map((v) => values[v]!),
    );
  });
  const samples = await repeatInRounds(real.map(runOf), repeats, {
    ...hostTimingFor(
      (k) => system.devices[real[k]!.device]!,
      (k) => handed[k]!,
    ),
    ...(options.signal ? { signal: options.signal } : {}),
    onDone: (k, results) => finish(real[k]!, summarise(results)),
  });
  return new Map(real.map((p, k) => [pieceKey(p.op, p.device, p.begin, p.end), samples[k]!.map((r) => ({ seconds: r.seconds, joules: r.joules }))]));
}

/** What the oracle keeps of a piece's run: its cost and how it was obtained, not its output. */
type PieceRun = Omit<PieceResult, 'output'>;

/** A real piece's cost from its timed runs: the median, and the first and third quartiles, each with its run's energy. */
function summarise(results: readonly PieceRun[]): MeasuredCost {
  const bySeconds = [...results].sort((a, b) => a.seconds - b.seconds);
  const [lo, mid, hi] = quartiles(bySeconds.map((r) => r.seconds));
  const joulesAt = (s: number): number => bySeconds.find((r) => r.seconds === s)!.joules;
  return {
    seconds: mid,
    joules: joulesAt(mid),
    lo: { seconds: lo, joules: joulesAt(lo) },
    hi: { seconds: hi, joules: joulesAt(hi) },
    basis: bySeconds[0]!.source,
    repeats: results.length,
  };
}
