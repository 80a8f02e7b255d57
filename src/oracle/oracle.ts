// The oracle: the true best mapping, found by execution instead of prediction, and the yardstick
// every decision of the planner is judged by. Its mapping space comes from the workload and the
// system alone (candidates.ts: every device, a fixed share grid, and balance points computed from
// executed costs); every piece of work in it is executed with real data through the executor's
// piece runner (measure.ts: real devices timed with repeats, simulators simulating); and the best
// mapping for each objective is found exactly by branch and bound over the planner's own list
// schedule (search.ts). No cost-model prediction enters it, so its best does not move when the
// model does. Dense operators on simulated devices have no simulator: they are priced by the
// devices' rooflines, which planner and oracle therefore share (stated wherever reported).

import type { System } from '../devices/system.js';
import { checkSystem } from '../devices/system.js';
import { describe, InvalidArgumentError } from '../errors.js';
import { median } from '../stats.js';
import { Evaluator, type Constraints, type Metrics } from '../scheduler/evaluate.js';
import { type Choice, type CostSource, CostTable, type SpaceOptions, splitChoice } from '../scheduler/space.js';
import type { BoundWorkload } from '../workloads/bind.js';
import { referenceValues, type Value } from '../workloads/reference.js';
import { balancedShares, capableDevices, crossingShares, DEFAULT_GRID, deviceGroups, gridChoices, type ShareGrid } from '../scheduler/share-grid.js';
import { MeasuredCostSource, type MeasureOptions, measurePieces, type PieceOfWork, pieceKey } from './measure.js';
import { branchAndBound, objectiveValue, type Optimum, type ScalarObjective } from '../scheduler/branch-and-bound.js';

export interface OracleOptions extends MeasureOptions {
  /** The share grid of split operators. @default two-way every 4%, three-way every 10% */
  readonly grid?: ShareGrid;
  /** Partial mappings the branch and bound may visit per objective. @default 2e7 */
  readonly maxNodes?: number;
}

/** What the oracle is built for: a workload bound to its data on a system, and what a mapping must respect. */
export interface OracleProblem {
  readonly bound: BoundWorkload;
  readonly system: System;
  /** Devices (system indices) mappings may use. */
  readonly allowed: readonly number[];
  readonly constraints: Constraints;
  /** Whether and how far operators may be split (the user's choice, not the planner's candidates). */
  readonly space?: SpaceOptions;
}

/** Rounds at least of a paired comparison (Oracle.compare): enough that a quartile of the rounds' ratios is not one outlier. */
export const PAIRED_ROUNDS = 15;

/**
 * A mapping against the best, executed together: each side's figures, and the objective's value
 * of the pick over the best's composed round by round (median and quartiles over `rounds`; 0
 * rounds where every piece is simulated, the ratio then exact).
 */
export interface PairedComparison {
  /** Composed from the median of each piece's runs (pieces that ran more often have more of them). */
  readonly pick: ScoredMapping;
  readonly best: ScoredMapping;
  readonly ratio: { readonly median: number; readonly lo: number; readonly hi: number; readonly rounds: number };
  /**
   * The pick's and the best's figures from the same rounds as `ratio`: each round composed from
   * that round's runs, then the median over rounds of its makespan and of its energy (the
   * piece-median figures above where nothing was timed). What to print beside the ratio: a short
   * piece runs more rounds than a long one, and composed from all of its runs, a mapping of short
   * pieces was shown 246 us against 151 for a pick the rounds judged 11% worse.
   */
  readonly inRounds: { readonly pick: RoundFigures; readonly best: RoundFigures };
}

/** A mapping's makespan and energy, each the median over the paired rounds. */
export interface RoundFigures {
  readonly makespan: number;
  readonly energy: number;
}

/** A mapping's executed figures: from the median of each piece's repeats, and from the low and high ends of their spread. */
export interface ScoredMapping {
  readonly median: Metrics;
  readonly lo: Metrics;
  readonly hi: Metrics;
}

/** Median and quartiles of paired rounds' ratios (non-empty), each an order statistic: the nearest round's ratio, not an interpolation. */
export function ratioQuartiles(ratios: readonly number[]): { readonly median: number; readonly lo: number; readonly hi: number } {
  const sorted = [...ratios].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.round(q * (sorted.length - 1))]!;
  return { median: at(0.5), lo: at(0.25), hi: at(0.75) };
}

/** The median over rounds of each figure, taken apart (makespan and energy need not share a round). */
function roundMedian(rounds: readonly Metrics[]): RoundFigures {
  return { makespan: median(rounds.map((m) => m.makespan)), energy: median(rounds.map((m) => m.energy)) };
}

const piecesOf = (i: number, choices: readonly Choice[]): PieceOfWork[] =>
  choices.flatMap((ch) => ch.parts.map((p) => ({ op: i, device: p.device, begin: p.begin, end: p.end })));

export class Oracle {
  readonly table: CostTable;
  /** Evaluates the oracle's mappings on their median executed costs, time and energy, under the constraints. */
  readonly evaluator: Evaluator;
  private readonly optima = new Map<ScalarObjective, Optimum>();

  private constructor(
    readonly problem: OracleProblem,
    /** The oracle's choices per operator (its own space, not the planner's). */
    readonly choices: readonly (readonly Choice[])[],
    readonly source: MeasuredCostSource,
    private readonly values: readonly Value[],
    private readonly options: OracleOptions,
  ) {
    this.table = new CostTable(choices, problem.bound.ops, source);
    this.evaluator = new Evaluator(problem.bound, problem.system, this.table, ['time', 'energy'], problem.constraints);
  }

  /**
   * Build the oracle's space and execute every piece of work in it.
   * @throws {InvalidArgumentError} on a malformed problem; the signal's reason when aborted.
   * @example
   * const oracle = await Oracle.build(plan.problem);
   * oracle.optimum('min-time').value;   // seconds, executed
   */
  static async build(problem: OracleProblem, options: OracleOptions = {}): Promise<Oracle> {
    const fn = 'Oracle.build';
    if (problem === null || typeof problem !== 'object')
      throw new InvalidArgumentError(`${fn}: problem must be a planning problem (plan.problem), got ${describe(problem)}`);
    const { bound, system } = problem;
    checkSystem(fn, system);
    if (bound === null || typeof bound !== 'object' || !Array.isArray(bound.ops))
      throw new InvalidArgumentError(`${fn}: problem.bound must come from bindWorkload, got ${describe(bound)}`);
    if (!Array.isArray(problem.allowed) || problem.allowed.length === 0)
      throw new InvalidArgumentError(`${fn}: problem.allowed must list device indices, got ${describe(problem.allowed)}`);
    const grid = options.grid ?? DEFAULT_GRID;
    const space = problem.space ?? {};
    const values = referenceValues(bound);
    const source = new MeasuredCostSource();
    const names = system.devices.map((d) => d.name);
    const measure = async (pieces: PieceOfWork[]): Promise<void> => void (await measurePieces(bound, system, values, pieces, source, options));
    const sets = bound.ops.map((op) => gridChoices(bound, system, op, capableDevices(bound, system, problem.allowed, op), space, grid));
    // Every operator whole on each device first: its balance points come from these.
    await measure(
      sets.flatMap((set, i) =>
        piecesOf(
          i,
          set.choices.filter((c) => c.parts.length === 1),
        ),
      ),
    );
    const seconds = (i: number, ch: Choice, part: number): number => {
      const p = ch.parts[part]!;
      return source.get(i, p.device, p.begin, p.end).seconds;
    };
    const balance: Choice[][] = bound.ops.map(() => []);
    bound.ops.forEach((op, i) => {
      const capable = capableDevices(bound, system, problem.allowed, op);
      const whole = new Map(sets[i]!.choices.filter((c) => c.parts.length === 1).map((c) => [c.parts[0]!.device, seconds(i, c, 0)]));
      if (sets[i]!.choices.length === capable.length) return; // not split
      const { pairs, triples } = deviceGroups(capable, space);
      for (const devs of [...pairs, ...triples]) {
        const added = sets[i]!.add(splitChoice(op, bound, names, devs, balancedShares(devs.map((d) => whole.get(d)!))));
        if (added && added.parts.length === 3) balance[i]!.push(added);
      }
    });
    await measure(sets.flatMap((set, i) => piecesOf(i, set.choices)));
    // Refine from the executed parts: where two-way parts cross, and three-way shares re-balanced twice.
    for (let round = 0; round < 2; round++) {
      const fresh: PieceOfWork[] = [];
      bound.ops.forEach((op, i) => {
        const set = sets[i]!;
        if (round === 0) {
          for (const { devs, share } of crossingShares(set.choices, (ch, part) => seconds(i, ch, part))) {
            const added = set.add(splitChoice(op, bound, names, devs, [share, 1 - share]));
            if (added) fresh.push(...piecesOf(i, [added]));
          }
        }
        balance[i] = balance[i]!.flatMap((ch) => {
          const devs = ch.parts.map((p) => p.device);
          const next = balancedShares(ch.parts.map((p, k) => seconds(i, ch, k) / Math.max(p.fraction, 1e-12)));
          const added = set.add(splitChoice(op, bound, names, devs, next));
          if (!added) return [];
          fresh.push(...piecesOf(i, [added]));
          return [added];
        });
      });
      await measure(fresh);
    }
    return new Oracle(
      problem,
      sets.map((s) => s.choices),
      source,
      values,
      options,
    );
  }

  /** The best mapping of the oracle's space for `objective`, executed figures (memoised). */
  optimum(objective: ScalarObjective): Optimum {
    let o = this.optima.get(objective);
    if (!o) {
      o = branchAndBound(this.evaluator, objective, {
        ...(this.options.maxNodes !== undefined ? { maxNodes: this.options.maxNodes } : {}),
        seeds: this.singles(),
      });
      this.optima.set(objective, o);
    }
    return o;
  }

  /** Every operator whole on one device, for each device that can run them all: the searches' first incumbents. */
  private singles(): Int32Array[] {
    const out: Int32Array[] = [];
    for (const d of this.problem.allowed) {
      const g = this.choices.map((cs) => cs.findIndex((c) => c.parts.length === 1 && c.parts[0]!.device === d));
      if (g.every((c) => c >= 0)) out.push(Int32Array.from(g));
    }
    return out;
  }

  /** Executed metrics of a mapping of the oracle's own space. */
  metrics(genome: Int32Array): Metrics {
    return this.evaluator.metrics(genome);
  }

  /** An oracle mapping at the low and high ends of its pieces' spread. */
  spread(genome: Int32Array): { readonly lo: Metrics; readonly hi: Metrics } {
    const at = (costs: CostSource): Metrics =>
      new Evaluator(
        this.problem.bound,
        this.problem.system,
        new CostTable(this.choices, this.problem.bound.ops, costs),
        ['time', 'energy'],
        this.problem.constraints,
      ).metrics(genome);
    return { lo: at(this.source.quantile('lo')), hi: at(this.source.quantile('hi')) };
  }

  /**
   * Execute any mapping (one choice per operator, from any space: the planner's pick, a
   * baseline) and compose its figures by the same list schedule; pieces already executed are reused.
   */
  async score(mapping: readonly Choice[]): Promise<ScoredMapping> {
    const { bound, system } = this.problem;
    if (!Array.isArray(mapping) || mapping.length !== bound.ops.length)
      throw new InvalidArgumentError(`Oracle.score: mapping must hold one choice per operator (${bound.ops.length}), got ${describe(mapping)}`);
    await measurePieces(
      bound,
      system,
      this.values,
      mapping.flatMap((ch, i) => piecesOf(i, [ch])),
      this.source,
      this.options,
    );
    return this.compose(mapping, this.source);
  }

  /**
   * A mapping against the oracle's best for `objective`, both executed afresh in the same rounds
   * (simulated pieces reuse their deterministic figures). Comparing a pick with the best as first
   * measured would charge the pick with the machine's load at two different moments, and with
   * the luck of the best: the minimum of many noisy candidates is biased low. `ratio` is the pick's
   * value over the best's composed round by round, each round's figures from runs of that round
   * only (at least `PAIRED_ROUNDS`): a spell in which this machine runs slow falls on both sides of
   * a round's ratio, where medians taken piece by piece mix moments.
   */
  async compare(mapping: readonly Choice[], objective: ScalarObjective): Promise<PairedComparison> {
    const { bound } = this.problem;
    if (!Array.isArray(mapping) || mapping.length !== bound.ops.length)
      throw new InvalidArgumentError(`Oracle.compare: mapping must hold one choice per operator (${bound.ops.length}), got ${describe(mapping)}`);
    const best = Array.from(this.optimum(objective).genome, (c, i) => this.choices[i]![c]!);
    const fresh = new MeasuredCostSource();
    const samples = await measurePieces(
      bound,
      this.problem.system,
      this.values,
      [...mapping, ...best].flatMap((ch, k) => piecesOf(k % bound.ops.length, [ch])),
      fresh,
      { ...this.options, repeats: Math.max(this.options.repeats ?? 5, PAIRED_ROUNDS) },
    );
    const pick = this.compose(mapping, fresh);
    const bestScored = this.compose(best, fresh);
    const rounds = Math.min(...[...samples.values()].map((s) => s.length));
    const value = (m: Metrics): number => objectiveValue(objective, m.makespan, m.energy);
    const ratios: number[] = [];
    const pickRounds: Metrics[] = [];
    const bestRounds: Metrics[] = [];
    for (let r = 0; r < (samples.size ? rounds : 0); r++) {
      const round: CostSource = {
        cost: (op, d, b, e) => samples.get(pieceKey(op.index, d, b, e))?.[r] ?? fresh.get(op.index, d, b, e),
      };
      const p = this.compose(mapping, round).median;
      const q = this.compose(best, round).median;
      pickRounds.push(p);
      bestRounds.push(q);
      ratios.push(value(p) / value(q));
    }
    if (!ratios.length) ratios.push(value(pick.median) / value(bestScored.median));
    const inRounds = {
      pick: pickRounds.length ? roundMedian(pickRounds) : { makespan: pick.median.makespan, energy: pick.median.energy },
      best: bestRounds.length ? roundMedian(bestRounds) : { makespan: bestScored.median.makespan, energy: bestScored.median.energy },
    };
    return { pick, best: bestScored, ratio: { ...ratioQuartiles(ratios), rounds: samples.size ? rounds : 0 }, inRounds };
  }

  /** A mapping's figures composed by the list schedule from the pieces' costs in `source`. */
  private compose(mapping: readonly Choice[], source: MeasuredCostSource | CostSource): ScoredMapping {
    const { bound, system, constraints } = this.problem;
    const one = mapping.map((ch) => [ch]);
    const zero = new Int32Array(bound.ops.length);
    const at = (costs: CostSource): Metrics =>
      new Evaluator(bound, system, new CostTable(one, bound.ops, costs), ['time', 'energy'], constraints).metrics(zero);
    const median = at(source);
    if (!(source instanceof MeasuredCostSource)) return { median, lo: median, hi: median };
    return { median, lo: at(source.quantile('lo')), hi: at(source.quantile('hi')) };
  }

  /**
   * The best mapping of another space (one list of choices per operator, e.g. the planner's own
   * candidates) by the same executed costs: the yardstick the old oracle was, kept for comparison.
   */
  async bestOf(choices: readonly (readonly Choice[])[], objective: ScalarObjective): Promise<Optimum> {
    const { bound, system, constraints } = this.problem;
    await measurePieces(
      bound,
      system,
      this.values,
      choices.flatMap((cs, i) => piecesOf(i, cs)),
      this.source,
      this.options,
    );
    const evaluator = new Evaluator(bound, system, new CostTable(choices, bound.ops, this.source), ['time', 'energy'], constraints);
    return branchAndBound(evaluator, objective, this.options.maxNodes !== undefined ? { maxNodes: this.options.maxNodes } : {});
  }

  /** Pieces executed, by how their cost was obtained. */
  tally(): Record<'measured' | 'simulated' | 'roofline', number> {
    return this.source.tally();
  }
}

/**
 * Execute just the pieces `mappings` need (each mapping one choice per operator) and compose
 * each: `dype explore --measure` draws these beside the predictions.
 */
export async function measureMappings(
  problem: OracleProblem,
  mappings: readonly (readonly Choice[])[],
  options: MeasureOptions = {},
): Promise<{ metrics: Metrics[]; tally: Record<'measured' | 'simulated' | 'roofline', number> }> {
  const { bound, system, constraints } = problem;
  const values = referenceValues(bound);
  const source = new MeasuredCostSource();
  await measurePieces(
    bound,
    system,
    values,
    mappings.flatMap((m) => m.flatMap((ch, i) => piecesOf(i, [ch]))),
    source,
    options,
  );
  const zero = new Int32Array(bound.ops.length);
  const metrics = mappings.map((m) =>
    new Evaluator(
      bound,
      system,
      new CostTable(
        m.map((ch) => [ch]),
        bound.ops,
        source,
      ),
      ['time', 'energy'],
      constraints,
    ).metrics(zero),
  );
  return { metrics, tally: source.tally() };
}

export type { ScalarObjective };
