// The contract between the scheduler and its search strategies: a problem is a space of integer
// genomes with an objective evaluator (all objectives minimised), a result is every genome the
// strategy evaluated plus the feasible Pareto front among them. Also the checks and the result
// assembly every strategy shares, so each one validates and reports in the same way.

import { describe, InvalidArgumentError } from '../../errors.js';
import { seedToU32 } from '../../generators/rng.js';
import { checkInt, checkOptions, checkSignal } from '../../validate.js';
import { maskedFront } from '../pareto.js';

/** A discrete multi-objective minimisation problem over genomes of integer genes. */
export interface SearchProblem {
  /** Gene i takes the values 0 .. cardinality[i] - 1. */
  readonly cardinality: Int32Array;
  readonly objectives: 2 | 3;
  /**
   * Write the objectives of `genome` into `out` (length = objectives); return false when the
   * genome is infeasible (violates a constraint). Must not keep references to genome/out:
   * strategies reuse both buffers. `out` is filled with NaN before each call.
   */
  evaluate(genome: Int32Array, out: Float64Array): boolean;
  /** Genomes to put in the first population (e.g. single-device mappings, a HEFT mapping). */
  readonly seeds?: readonly Int32Array[];
}

export interface SearchOptions {
  /** PRNG seed, an integer in [0, 2^32 - 1]; call sites default to 1. */
  readonly seed: number;
  /** Most evaluations a budgeted strategy (nsga2) may make, e.g. 4000. Exhaustive ignores it. */
  readonly budget: number;
  /**
   * Population size of population-based strategies: an even integer.
   * @default 64
   */
  readonly population?: number;
  /** Checked once per generation / every 4096 evaluations; the search throws `signal.reason`. */
  readonly signal?: AbortSignal;
}

export interface SearchResult {
  readonly strategy: string;
  readonly genes: number;
  readonly objectives: number;
  /** Unique genomes evaluated. */
  readonly count: number;
  /** count * genes, row-major. */
  readonly genomes: Int32Array;
  /** count * objectives, row-major; an infeasible genome's row is what evaluate wrote (NaN where it wrote nothing). */
  readonly values: Float64Array;
  /** 1 for a feasible genome, 0 for an infeasible one; count entries. */
  readonly feasible: Uint8Array;
  /** Indices of the feasible non-dominated genomes, from paretoFront (objective 0 ascending). */
  readonly front: Int32Array;
  /** True when every genome of the space was evaluated: the front is then the true front. */
  readonly exhaustive: boolean;
  /** Calls to evaluate. */
  readonly evaluations: number;
}

/** One search policy; strategies are registered by name in STRATEGIES (search/index.ts). */
export interface SearchStrategy {
  readonly name: string;
  readonly description: string;
  /**
   * @throws {InvalidArgumentError} on a malformed problem or options, or an evaluate that
   *   returns a non-boolean or a NaN objective for a feasible genome.
   * @throws whatever `options.signal` was aborted with.
   */
  search(problem: SearchProblem, options: SearchOptions): SearchResult;
}

const TWO_53 = 2 ** 53;

/**
 * The number of genomes in the space: the product of the cardinalities, Infinity once it
 * exceeds 2^53 (where genome counts stop being exact).
 *
 * @throws {InvalidArgumentError} when `cardinality` is not an Int32Array.
 * @example
 * spaceSize(new Int32Array([3, 4, 5])); // 60
 */
export function spaceSize(cardinality: Int32Array): number {
  if (!(cardinality instanceof Int32Array)) {
    throw new InvalidArgumentError(`spaceSize: cardinality must be an Int32Array, got ${describe(cardinality)}`);
  }
  let size = 1;
  for (let i = 0; i < cardinality.length; i++) {
    size *= Math.max(0, cardinality[i]!);
    if (size > TWO_53) return Infinity;
  }
  return size;
}

/** Options after checking, with defaults applied. @internal */
export interface CheckedOptions {
  readonly seed: number;
  readonly budget: number;
  readonly population: number;
  readonly signal: AbortSignal | undefined;
}

/**
 * Validate a problem and its options the same way for every strategy; `fn` names the strategy.
 * @internal
 */
export function checkSearch(fn: string, problem: SearchProblem, options: SearchOptions): CheckedOptions {
  if (problem === null || typeof problem !== 'object') {
    throw new InvalidArgumentError(`${fn}: problem must be an object, got ${describe(problem)}`);
  }
  const card = problem.cardinality;
  if (!(card instanceof Int32Array) || card.length === 0) {
    throw new InvalidArgumentError(`${fn}: problem.cardinality must be a non-empty Int32Array, got ${describe(card)}`);
  }
  for (let i = 0; i < card.length; i++) {
    if (card[i]! < 1) throw new InvalidArgumentError(`${fn}: problem.cardinality[${i}] must be at least 1, got ${card[i]}`);
  }
  if (problem.objectives !== 2 && problem.objectives !== 3) {
    throw new InvalidArgumentError(`${fn}: problem.objectives must be 2 or 3, got ${describe(problem.objectives)}`);
  }
  if (typeof problem.evaluate !== 'function') {
    throw new InvalidArgumentError(`${fn}: problem.evaluate must be a function, got ${describe(problem.evaluate)}`);
  }
  if (problem.seeds !== undefined) {
    if (!Array.isArray(problem.seeds)) {
      throw new InvalidArgumentError(`${fn}: problem.seeds must be an array of Int32Array genomes, got ${describe(problem.seeds)}`);
    }
    problem.seeds.forEach((s: unknown, i) => {
      if (!(s instanceof Int32Array) || s.length !== card.length) {
        throw new InvalidArgumentError(`${fn}: problem.seeds[${i}] must be an Int32Array of ${card.length} genes, got ${describe(s)}`);
      }
      for (let j = 0; j < s.length; j++) {
        if (s[j]! < 0 || s[j]! >= card[j]!) {
          throw new InvalidArgumentError(`${fn}: problem.seeds[${i}][${j}] must be in [0, ${card[j]! - 1}], got ${s[j]}`);
        }
      }
    });
  }
  if (options === null || typeof options !== 'object') {
    throw new InvalidArgumentError(`${fn}: options must be an object, got ${describe(options)}`);
  }
  const opts = checkOptions(fn, options, ['seed', 'budget', 'population', 'signal']);
  const seed = seedToU32(opts.seed as number, fn);
  const budget = checkInt(fn, 'options.budget', opts.budget, 1, 2 ** 31 - 1);
  const population = opts.population === undefined ? 64 : checkInt(fn, 'options.population', opts.population, 4, 2 ** 20);
  if (population % 2 !== 0) throw new InvalidArgumentError(`${fn}: options.population must be even, got ${population}`);
  checkSignal(fn, 'options.signal', opts.signal);
  opts.signal?.throwIfAborted();
  return { seed, budget, population, signal: opts.signal };
}

/**
 * Call `problem.evaluate` on `genome`, check what it returned and wrote, and copy the
 * objectives into `values` at row `row`. Returns feasibility.
 * @internal
 */
export function evaluateInto(fn: string, problem: SearchProblem, genome: Int32Array, out: Float64Array, values: Float64Array, row: number): boolean {
  const m = out.length;
  out[0] = NaN;
  out[1] = NaN;
  if (m === 3) out[2] = NaN;
  const ok = problem.evaluate(genome, out);
  if (ok !== true && ok !== false) {
    throw new InvalidArgumentError(`${fn}: problem.evaluate must return a boolean, got ${describe(ok)} for genome [${genome.join(', ')}]`);
  }
  const at = row * m;
  for (let k = 0; k < m; k++) {
    const v = out[k]!;
    if (ok && Number.isNaN(v)) {
      throw new InvalidArgumentError(`${fn}: problem.evaluate wrote NaN for objective ${k} of feasible genome [${genome.join(', ')}]`);
    }
    values[at + k] = v;
  }
  return ok;
}

/**
 * Assemble a result from the first `count` rows of an archive, computing the feasible front.
 * @internal
 */
export function finishResult(
  strategy: string,
  genes: number,
  objectives: 2 | 3,
  count: number,
  genomes: Int32Array,
  values: Float64Array,
  feasible: Uint8Array,
  exhaustive: boolean,
  evaluations: number,
): SearchResult {
  // Trim over-allocated archives so the result holds no dead capacity.
  const g = genomes.length === count * genes ? genomes : genomes.slice(0, count * genes);
  const v = values.length === count * objectives ? values : values.slice(0, count * objectives);
  const f = feasible.length === count ? feasible : feasible.slice(0, count);
  const front = maskedFront(strategy, v, objectives, count, f);
  return { strategy, genes, objectives, count, genomes: g, values: v, feasible: f, front, exhaustive, evaluations };
}
