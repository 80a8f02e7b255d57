// The Pareto search over a mapping space: one entry point for every caller that needs a front
// (explore and schedule, re-planning the rest of a run, the oracle's enumeration), so that the
// strategy, its seed and its budget are chosen in one place and re-planning searches exactly
// as planning did. Operators may be held at a choice (started ones, when re-planning) or limited
// to some choices (devices still available); held operators leave the genome.

import type { System } from '../devices/system.js';
import { describe, InvalidArgumentError } from '../errors.js';
import { checkInt, checkNumber, suggest } from '../validate.js';
import type { BoundWorkload } from '../workloads/bind.js';
import { Evaluator, type Constraints, type Objective } from './evaluate.js';
import { hypervolume } from './pareto.js';
import { chooseStrategy, type SearchResult, type SearchStrategy, spaceSize, STRATEGIES } from './search/index.js';
import type { Choice, CostTable } from './space.js';

/** How a front is searched. */
export interface FrontSearchSettings {
  /** `auto` (exhaustive up to `exhaustiveLimit` mappings, NSGA-II above), or a strategy name. */
  readonly strategy: string;
  readonly exhaustiveLimit: number;
  /** Evaluations a budgeted strategy may make. */
  readonly budget: number;
  readonly seed: number;
}

export const DEFAULT_SEARCH: FrontSearchSettings = { strategy: 'auto', exhaustiveLimit: 1e5, budget: 2000, seed: 1 };

/** Check the search options of a call (`search`, `exhaustiveLimit`, `budget`, `seed`) and fill in defaults. */
export function checkSearchSettings(fn: string, o: { search?: unknown; exhaustiveLimit?: unknown; budget?: unknown; seed?: unknown }): FrontSearchSettings {
  const seed = o.seed === undefined ? DEFAULT_SEARCH.seed : checkInt(fn, 'seed', o.seed, 0, 2 ** 32 - 1);
  const budget = o.budget === undefined ? DEFAULT_SEARCH.budget : checkInt(fn, 'budget', o.budget, 1, 1e7);
  const exhaustiveLimit = o.exhaustiveLimit === undefined ? DEFAULT_SEARCH.exhaustiveLimit : checkNumber(fn, 'exhaustiveLimit', o.exhaustiveLimit, 0, 2e6);
  const strategy = o.search ?? 'auto';
  if (strategy !== 'auto' && !(typeof strategy === 'string' && STRATEGIES.has(strategy))) {
    const names = ['auto', ...STRATEGIES.keys()];
    const hint = typeof strategy === 'string' ? suggest(strategy, names) : undefined;
    throw new InvalidArgumentError(
      `${fn}: unknown search ${describe(strategy)}` + (hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ` (searches: ${names.join(', ')})`),
    );
  }
  return { strategy: strategy as string, exhaustiveLimit, budget, seed };
}

/** A mapping with its predicted objectives. */
export interface MappingPoint {
  /** Choice index per operator (in `operators` order). */
  readonly genome: Int32Array;
  /** Short form: `op:device` or `op:dev1 60% + dev2 40%`, comma-separated. */
  readonly label: string;
  /** Seconds (a stream: seconds per input). */
  readonly time: number;
  /** Joules (a stream: per input). */
  readonly energy: number;
  /** Peak bytes in the fullest memory of its own a device has (0 when only host-memory devices run it). */
  readonly memory: number;
  /** Makespan of one run, seconds. */
  readonly latency: number;
}

/** What a front search needs: a mapping space with its costs, and what to minimise under which constraints. */
export interface FrontProblem {
  readonly bound: BoundWorkload;
  readonly system: System;
  readonly choices: readonly (readonly Choice[])[];
  readonly table: CostTable;
  readonly objectives: readonly Objective[];
  readonly constraints: Constraints;
}

export interface FrontSearchOptions {
  /** Whole genomes to start from (single-device mappings, HEFT, the mapping in force). */
  readonly seeds?: readonly Int32Array[];
  /**
   * Per operator, the choices the search may give it, or null to hold it at `held`'s choice
   * (it then leaves the genome). Every choice of every operator by default.
   */
  readonly genes?: readonly (readonly number[] | null)[];
  /** The choices of held operators. Required with `genes`. */
  readonly held?: Int32Array;
  /** Feasible dominated mappings kept (an even sample), for plots. @default 0 */
  readonly maxPoints?: number;
  readonly signal?: AbortSignal;
}

export interface FrontSearch {
  /** The feasible Pareto front, in the strategy's order (objective 0 ascending). */
  readonly front: readonly MappingPoint[];
  /** A sample of the other feasible mappings evaluated. */
  readonly dominated: readonly MappingPoint[];
  readonly infeasible: number;
  readonly hypervolume: { readonly value: number; readonly normalised: number; readonly reference: readonly number[] };
  readonly strategy: string;
  readonly spaceSize: number;
  readonly evaluated: number;
  readonly exhaustive: boolean;
  readonly seconds: number;
  /** The search's own record (genomes over the free genes only). */
  readonly result: SearchResult;
  /** The whole genome of the search's i-th evaluated genome. */
  genomeAt(i: number): Int32Array;
  /** A mapping's four objectives under the problem's constraints. */
  pointOf(genome: Int32Array): MappingPoint;
}

/** A mapping's short form, `op:choice` comma-separated, leaving out the operators `skip` marks. */
export function mappingLabel(bound: BoundWorkload, choices: readonly (readonly Choice[])[], genome: Int32Array, skip?: readonly boolean[]): string {
  return bound.ops.flatMap((op, i) => (skip?.[i] ? [] : [`${op.id}:${choices[i]![genome[i]!]!.label}`])).join(', ');
}

/** A mapping's four objectives under the problem's constraints (one evaluation; for a search, use FrontSearch.pointOf). */
export function mappingPoint(problem: FrontProblem, genome: Int32Array): MappingPoint {
  const { bound, system, choices, table, constraints } = problem;
  const out = new Float64Array(4);
  new Evaluator(bound, system, table, ['time', 'energy', 'memory', 'latency'], constraints).evaluate(genome, out);
  return { genome, label: mappingLabel(bound, choices, genome), time: out[0]!, energy: out[1]!, memory: out[2]!, latency: out[3]! };
}

/** Resolve `auto` for a space of these cardinalities. */
function strategyFor(settings: FrontSearchSettings, cardinality: Int32Array): SearchStrategy {
  return settings.strategy === 'auto' ? chooseStrategy(cardinality, settings.exhaustiveLimit) : STRATEGIES.get(settings.strategy)!;
}

/**
 * Search a mapping space for its Pareto front.
 * @throws {InvalidArgumentError} when `genes` holds an operator but `held` is missing.
 * @throws the signal's reason when aborted.
 * @example
 * const found = searchFront(problem, problem.search, { seeds, maxPoints: 5000 });
 * found.front.map((p) => p.label);
 */
export function searchFront(problem: FrontProblem, settings: FrontSearchSettings, options: FrontSearchOptions = {}): FrontSearch {
  const { bound, system, choices, table, objectives, constraints } = problem;
  const n = bound.ops.length;
  const evaluator = new Evaluator(bound, system, table, objectives, constraints);
  const all4 = new Evaluator(bound, system, table, ['time', 'energy', 'memory', 'latency'], constraints);
  // The free genes and how a genome over them expands to a whole one.
  let cardinality: Int32Array;
  let expand: (g: Int32Array) => Int32Array;
  let free: number[] | undefined;
  let geneChoices: (readonly number[])[] | undefined;
  if (options.genes) {
    if (!options.held || options.held.length !== n) throw new InvalidArgumentError(`searchFront: genes needs held, a genome of ${n} choices`);
    free = [];
    geneChoices = [];
    options.genes.forEach((g, i) => {
      if (g) {
        free!.push(i);
        geneChoices!.push(g);
      }
    });
    const full = Int32Array.from(options.held);
    cardinality = Int32Array.from(geneChoices, (o) => o.length);
    expand = (g) => {
      for (let k = 0; k < free!.length; k++) full[free![k]!] = geneChoices![k]![g[k]!]!;
      return full;
    };
  } else {
    cardinality = table.cardinality;
    expand = (g) => g;
  }
  // Seeds are whole genomes; a restricted search keeps those its genes can express.
  const seeds = (options.seeds ?? []).flatMap((s) => {
    if (!free) return [s];
    const g = Int32Array.from(free, (i, k) => geneChoices![k]!.indexOf(s[i]!));
    return g.every((x) => x >= 0) ? [g] : [];
  });
  const strategy = strategyFor(settings, cardinality);
  const t0 = performance.now();
  const result = strategy.search(
    { cardinality, objectives: objectives.length as 2 | 3, evaluate: (g, out) => evaluator.evaluate(expand(g), out), seeds },
    { seed: settings.seed, budget: settings.budget, ...(options.signal ? { signal: options.signal } : {}) },
  );
  const seconds = (performance.now() - t0) / 1000;

  const out4 = new Float64Array(4);
  const pointOf = (g: Int32Array): MappingPoint => {
    all4.evaluate(g, out4);
    return { genome: g, label: mappingLabel(bound, choices, g), time: out4[0]!, energy: out4[1]!, memory: out4[2]!, latency: out4[3]! };
  };
  const genomeAt = (i: number): Int32Array => Int32Array.from(expand(result.genomes.subarray(i * result.genes, (i + 1) * result.genes)));
  const front = Array.from(result.front, (i) => pointOf(genomeAt(i)));
  const inFront = new Set(result.front);
  const dominatedIdx: number[] = [];
  let infeasible = 0;
  for (let i = 0; i < result.count; i++) {
    if (!result.feasible[i]) infeasible++;
    else if (!inFront.has(i)) dominatedIdx.push(i);
  }
  const maxPoints = options.maxPoints ?? 0;
  const stride = Math.max(1, Math.ceil(dominatedIdx.length / Math.max(1, maxPoints)));
  const dominated = maxPoints === 0 ? [] : dominatedIdx.filter((_, k) => k % stride === 0).map((i) => pointOf(genomeAt(i)));

  // Hypervolume against 1.1x the worst feasible value of each objective.
  const m = objectives.length;
  const reference = new Array<number>(m).fill(0);
  const ideal = new Array<number>(m).fill(Infinity);
  for (let i = 0; i < result.count; i++) {
    if (!result.feasible[i]) continue;
    for (let k = 0; k < m; k++) {
      reference[k] = Math.max(reference[k]!, result.values[i * m + k]! * 1.1);
      ideal[k] = Math.min(ideal[k]!, result.values[i * m + k]!);
    }
  }
  const hv = result.front.length ? hypervolume(result.values, m, result.front, reference) : 0;
  const box = reference.reduce((p, r, k) => p * (r - ideal[k]!), 1);
  return {
    front,
    dominated,
    infeasible,
    hypervolume: { value: hv, normalised: box > 0 ? hv / box : 0, reference },
    strategy: result.strategy,
    spaceSize: spaceSize(cardinality),
    evaluated: result.count,
    exhaustive: result.exhaustive,
    seconds,
    result,
    genomeAt,
    pointOf,
  };
}
