// The oracle: the true best mapping, found by execution instead of prediction. Every distinct
// piece of work the mapping space contains (operator x device x row range) is run once on its
// device with real data (native kernels are timed, simulators simulate), and every mapping is
// then composed from those costs by the same list schedule the planner uses. No cost-model
// prediction enters it. Dense operators on simulated devices have no simulator; they keep their
// roofline cost, which is therefore the same for planner and oracle (stated wherever reported).

import { robustRepeats } from '../cost/fit.js';
import { checkSystem, type System } from '../devices/system.js';
import { describe, InvalidArgumentError } from '../errors.js';
import type { BoundOp, BoundWorkload } from '../workloads/bind.js';
import { referenceValues } from '../workloads/reference.js';
import { Evaluator, type Constraints, type Metrics, type Objective } from '../scheduler/evaluate.js';
import { type Choice, type CostSource, CostTable } from '../scheduler/space.js';
import { nsga2 } from '../scheduler/search/nsga2.js';
import { type PieceResult, runPiece } from '../executor/piece.js';

export interface OracleOptions {
  /** Timed repetitions of each measured (not simulated) piece; the median is kept. @default 3 */
  readonly repeats?: number;
  readonly signal?: AbortSignal;
  /** Called after each distinct piece is executed, with how many of how many are done. */
  readonly onProgress?: (done: number, total: number, label: string) => void;
}

/** Costs read off executions, one per distinct piece of work. */
export class MeasuredCostSource implements CostSource {
  /** How each cost was obtained, per piece: `measured`, `simulated` or `roofline`. */
  readonly basis = new Map<string, 'measured' | 'simulated' | 'roofline'>();
  private readonly costs = new Map<string, { seconds: number; joules: number }>();

  cost(op: BoundOp, device: number, begin: number, end: number): { seconds: number; joules: number } {
    const c = this.costs.get(key(op.index, device, begin, end));
    if (!c) throw new Error(`MeasuredCostSource: ${op.id} on device ${device} [${begin}, ${end}) was not executed`);
    return c;
  }

  set(k: string, c: { seconds: number; joules: number }, basis: 'measured' | 'simulated' | 'roofline'): void {
    this.costs.set(k, c);
    this.basis.set(k, basis);
  }

  get size(): number {
    return this.costs.size;
  }
}

const key = (op: number, d: number, b: number, e: number): string => `${op}/${d}/${b}/${e}`;

/**
 * Execute every distinct piece of work of the mapping space once (measured devices `repeats`
 * times, keeping the median) and return the costs.
 */
export async function measurePieces(
  bound: BoundWorkload,
  system: System,
  choices: readonly (readonly Choice[])[],
  options: OracleOptions = {},
): Promise<MeasuredCostSource> {
  const repeats = options.repeats ?? 3;
  const values = referenceValues(bound);
  const source = new MeasuredCostSource();
  const distinct = new Set<string>();
  choices.forEach((c, i) => c.forEach((ch) => ch.parts.forEach((part) => distinct.add(key(i, part.device, part.begin, part.end)))));
  for (let i = 0; i < bound.ops.length; i++) {
    const op = bound.ops[i]!;
    const x = op.operands.map((v) => values[v]!);
    for (const ch of choices[i]!) {
      for (const part of ch.parts) {
        const k = key(i, part.device, part.begin, part.end);
        if (source.basis.has(k)) continue;
        options.signal?.throwIfAborted();
        const device = system.devices[part.device]!;
        const results: PieceResult[] = [];
        for (let r = 0; r < (device.simulated ? 1 : repeats); r++) results.push(await runPiece(bound, op, device, x, part.begin, part.end, options.signal));
        const sec = robustRepeats(results.map((r) => r.seconds));
        const pick = results.reduce((a, b) => (Math.abs(b.seconds - sec) < Math.abs(a.seconds - sec) ? b : a));
        source.set(k, { seconds: pick.seconds, joules: pick.joules }, pick.source);
        options.onProgress?.(source.size, distinct.size, `${op.id} on ${device.name} [${part.begin}, ${part.end})`);
      }
    }
  }
  return source;
}

/** The oracle for one exploration: measured costs, and every mapping evaluated with them. */
export class Oracle {
  readonly table: CostTable;
  readonly evaluator: Evaluator;

  constructor(
    readonly bound: BoundWorkload,
    readonly system: System,
    readonly choices: readonly (readonly Choice[])[],
    readonly source: MeasuredCostSource,
    constraints: Constraints = {},
  ) {
    checkSystem('Oracle', system);
    if (bound === null || typeof bound !== 'object' || !Array.isArray(bound.ops)) throw new InvalidArgumentError(`Oracle: bound must come from bindWorkload (an Exploration's bound), got ${describe(bound)}`);
    if (!Array.isArray(choices) || choices.length !== bound.ops.length) {
      throw new InvalidArgumentError(`Oracle: choices must be an array with one entry per operator (an Exploration's choices), got ${describe(choices)}`);
    }
    if (source === null || typeof source !== 'object') throw new InvalidArgumentError(`Oracle: source must be a MeasuredCostSource, got ${describe(source)}`);
    this.table = new CostTable(choices, bound.ops, source);
    this.evaluator = new Evaluator(bound, system, this.table, ['time', 'energy', 'memory', 'latency'], constraints);
  }

  /**
   * Measure every piece of work of an exploration's space.
   * @example
   * const oracle = await Oracle.measure(exploration);
   * oracle.best('min-time');
   */
  static async measure(ex: { bound: BoundWorkload; choices: readonly (readonly Choice[])[]; constraints: Constraints }, system: System, options: OracleOptions = {}): Promise<Oracle> {
    const source = await measurePieces(ex.bound, system, ex.choices, options);
    return new Oracle(ex.bound, system, ex.choices, source, ex.constraints);
  }

  /** True (executed) metrics of a mapping. */
  metrics(genome: Int32Array): Metrics {
    return this.evaluator.metrics(genome);
  }

  /**
   * The true optimum of a scalar objective over every mapping: exhaustive up to 2e6 mappings,
   * beyond that NSGA-II with a large budget (then not guaranteed; `exhaustive` says which).
   */
  optimum(objective: (m: { time: number; energy: number; memory: number; latency: number }) => number): { genome: Int32Array; value: number; exhaustive: boolean } {
    const card = this.table.cardinality;
    const out4 = new Float64Array(4);
    const score = (g: Int32Array): number => {
      const ok = this.evaluator.evaluate(g, out4);
      return ok ? objective({ time: out4[0]!, energy: out4[1]!, memory: out4[2]!, latency: out4[3]! }) : Infinity;
    };
    let size = 1;
    for (const c of card) size *= c;
    if (size > ORACLE_EXHAUSTIVE_MAX) {
      const problem = {
        cardinality: card,
        objectives: 2 as const,
        evaluate: (g: Int32Array, out: Float64Array): boolean => {
          out[0] = score(g);
          out[1] = out4[0]!;
          return Number.isFinite(out[0]);
        },
      };
      const result = nsga2.search(problem, { seed: 1, budget: 200_000 });
      let best = -1;
      for (let i = 0; i < result.count; i++) if (result.feasible[i] && (best < 0 || result.values[i * 2]! < result.values[best * 2]!)) best = i;
      if (best < 0) return { genome: new Int32Array(0), value: Infinity, exhaustive: false };
      return { genome: result.genomes.slice(best * result.genes, (best + 1) * result.genes), value: result.values[best * 2]!, exhaustive: false };
    }
    // Every mapping, odometer order, keeping only the best.
    const g = new Int32Array(card.length);
    let best = g.slice();
    let bestValue = score(g);
    for (;;) {
      let k = 0;
      while (k < g.length && ++g[k]! === card[k]!) g[k++] = 0;
      if (k === g.length) break;
      const v = score(g);
      if (v < bestValue) {
        bestValue = v;
        best = g.slice();
      }
    }
    return { genome: Number.isFinite(bestValue) ? best : new Int32Array(0), value: bestValue, exhaustive: true };
  }
}

/** Largest space the oracle searches exhaustively. */
export const ORACLE_EXHAUSTIVE_MAX = 5e6;

export type { Objective };
