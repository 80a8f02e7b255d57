// NSGA-II (Deb, Pratap, Agarwal, Meyarivan 2002) over integer genomes: binary tournaments on
// (rank, crowding), uniform crossover, per-gene mutation, elitist (mu + lambda) survival.
// Every unique genome evaluated is archived, so the result's front is over all of them, and a
// genome met again is never evaluated twice.

import { InvalidArgumentError } from '../../errors.js';
import { Rng } from '../../generators/rng.js';
import { crowdingDistanceKernel, nonDominatedSortKernel } from '../pareto.js';
import { EXHAUSTIVE_MAX, enumerateAll } from './exhaustive.js';
import {
  checkSearch,
  evaluateInto,
  finishResult,
  spaceSize,
  type CheckedOptions,
  type SearchOptions,
  type SearchProblem,
  type SearchResult,
  type SearchStrategy,
} from './types.js';

const FN = 'nsga2';
/** Probability that a pair of parents is recombined rather than copied (Deb et al.). */
const CROSSOVER = 0.9;
const TWO_32 = 4294967296;
const TWO_53 = 2 ** 53;

/** Every unique genome evaluated, in flat growable arrays, found again through a key map. */
class Archive {
  genomes: Int32Array;
  values: Float64Array;
  feasible: Uint8Array;
  /** The generation whose pool last held each genome: keeps a pool free of duplicates. */
  mark: Int32Array;
  count = 0;
  private readonly index = new Map<number | string, number>();
  /** Mixed-radix place values: below 2^53 genomes, a genome's number is an exact numeric key. */
  private readonly strides: Float64Array | undefined;

  constructor(
    private readonly genes: number,
    private readonly m: number,
    /** Most genomes it will hold: min(budget, space size). */
    private readonly limit: number,
    cardinality: Int32Array,
  ) {
    const capacity = Math.min(limit, 1024);
    this.genomes = new Int32Array(capacity * genes);
    this.values = new Float64Array(capacity * m);
    this.feasible = new Uint8Array(capacity);
    this.mark = new Int32Array(capacity);
    if (spaceSize(cardinality) <= TWO_53) {
      this.strides = new Float64Array(genes);
      let stride = 1;
      for (let j = 0; j < genes; j++) {
        this.strides[j] = stride;
        stride *= cardinality[j]!;
      }
    }
  }

  key(genome: Int32Array): number | string {
    const strides = this.strides;
    if (strides === undefined) return genome.join(',');
    let code = 0;
    for (let j = 0; j < genome.length; j++) code += genome[j]! * strides[j]!;
    return code;
  }

  find(key: number | string): number {
    return this.index.get(key) ?? -1;
  }

  add(key: number | string, genome: Int32Array): number {
    if (this.count === this.feasible.length) this.grow();
    const id = this.count++;
    this.genomes.set(genome, id * this.genes);
    this.index.set(key, id);
    return id;
  }

  private grow(): void {
    const capacity = Math.min(this.limit, this.feasible.length * 2);
    const genomes = new Int32Array(capacity * this.genes);
    genomes.set(this.genomes);
    this.genomes = genomes;
    const values = new Float64Array(capacity * this.m);
    values.set(this.values);
    this.values = values;
    const feasible = new Uint8Array(capacity);
    feasible.set(this.feasible);
    this.feasible = feasible;
    const mark = new Int32Array(capacity);
    mark.set(this.mark);
    this.mark = mark;
  }
}

/** The survivors of one generation, as archive ids with their rank and crowding distance. */
interface Population {
  readonly ids: Int32Array;
  readonly rank: Int32Array;
  readonly crowd: Float64Array;
  size: number;
}

/**
 * Elitist survival: fill `next` from `pool` front by front (feasible genomes only), the front
 * that does not fit cut by descending crowding distance; infeasible genomes, in random order,
 * only fill what room is left, ranked after every feasible front.
 */
function survive(archive: Archive, m: number, pool: Int32Array, poolSize: number, next: Population, rng: Rng): void {
  const capacity = next.ids.length;
  const feasibleIds: number[] = [];
  const infeasibleIds: number[] = [];
  for (let i = 0; i < poolSize; i++) {
    const id = pool[i]!;
    (archive.feasible[id] === 1 ? feasibleIds : infeasibleIds).push(id);
  }
  const values = archive.values;
  const fronts = nonDominatedSortKernel(values, m, Int32Array.from(feasibleIds));
  let size = 0;
  for (let r = 0; r < fronts.length && size < capacity; r++) {
    const front = fronts[r]!;
    const distance = crowdingDistanceKernel(values, m, front);
    if (size + front.length <= capacity) {
      for (let i = 0; i < front.length; i++) {
        next.ids[size] = front[i]!;
        next.rank[size] = r;
        next.crowd[size] = distance[i]!;
        size++;
      }
      continue;
    }
    // Most isolated first; equal distances in front order, which is deterministic.
    const order = Array.from(front.keys()).sort((a, b) => distance[b]! - distance[a]! || a - b);
    for (let i = 0; size < capacity; i++) {
      const p = order[i]!;
      next.ids[size] = front[p]!;
      next.rank[size] = r;
      next.crowd[size] = distance[p]!;
      size++;
    }
  }
  for (let i = infeasibleIds.length - 1; i > 0; i--) {
    const j = rng.nextInt(i + 1);
    const t = infeasibleIds[i]!;
    infeasibleIds[i] = infeasibleIds[j]!;
    infeasibleIds[j] = t;
  }
  for (let i = 0; size < capacity && i < infeasibleIds.length; i++) {
    next.ids[size] = infeasibleIds[i]!;
    next.rank[size] = fronts.length;
    next.crowd[size] = 0;
    size++;
  }
  next.size = size;
}

function run(problem: SearchProblem, opts: CheckedOptions): SearchResult {
  const card = problem.cardinality;
  const genes = card.length;
  const m = problem.objectives;
  const space = spaceSize(card);
  const budget = opts.budget;
  const n = opts.population;
  const rng = new Rng(opts.seed);
  const archive = new Archive(genes, m, Math.min(budget, space), card);
  const out = new Float64Array(m);
  const seeds = problem.seeds ?? [];
  // Children that repeat an archived genome cost no evaluation; this bounds how many may be
  // drawn in all, so a space not much larger than the budget cannot loop for ever.
  const duplicateCap = Math.max(20 * budget, 100 * n);
  let duplicates = 0;
  let epoch = 1;

  /** Archive id of `genome`, evaluated if new; -1 when it is already in the pool or the budget is spent. */
  const admit = (genome: Int32Array): number => {
    const key = archive.key(genome);
    let id = archive.find(key);
    if (id < 0) {
      if (archive.count >= budget) return -1;
      id = archive.add(key, genome);
      if (evaluateInto(FN, problem, genome, out, archive.values, id)) archive.feasible[id] = 1;
    } else duplicates++;
    if (archive.mark[id] === epoch) return -1;
    archive.mark[id] = epoch;
    return id;
  };

  // First pool: the seeds, then random genomes up to the population size.
  let pool = new Int32Array(Math.max(2 * n, seeds.length + n));
  let poolSize = 0;
  for (const s of seeds) {
    const id = admit(s);
    if (id >= 0) pool[poolSize++] = id;
  }
  const child = new Int32Array(genes);
  const sibling = new Int32Array(genes);
  while (poolSize < n && archive.count < budget && archive.count < space && duplicates < duplicateCap) {
    for (let j = 0; j < genes; j++) child[j] = rng.nextInt(card[j]!);
    const id = admit(child);
    if (id >= 0) pool[poolSize++] = id;
  }
  let population: Population = { ids: new Int32Array(n), rank: new Int32Array(n), crowd: new Float64Array(n), size: 0 };
  let spare: Population = { ids: new Int32Array(n), rank: new Int32Array(n), crowd: new Float64Array(n), size: 0 };
  survive(archive, m, pool, poolSize, population, rng);
  pool = new Int32Array(2 * n);

  const tournament = (): number => {
    const a = rng.nextInt(population.size);
    const b = rng.nextInt(population.size);
    const ra = population.rank[a]!;
    const rb = population.rank[b]!;
    if (ra !== rb) return ra < rb ? a : b;
    return population.crowd[b]! > population.crowd[a]! ? b : a;
  };
  const mutationThreshold = TWO_32 / genes;
  const mutate = (g: Int32Array): void => {
    for (let j = 0; j < genes; j++) {
      const c = card[j]!;
      // A mutated gene always changes: a new value drawn among the other c - 1.
      if (c > 1 && rng.nextU32() < mutationThreshold) g[j] = (g[j]! + 1 + rng.nextInt(c - 1)) % c;
    }
  };

  while (archive.count < budget && archive.count < space && duplicates < duplicateCap && population.size > 0) {
    opts.signal?.throwIfAborted();
    epoch++;
    for (let i = 0; i < population.size; i++) {
      const id = population.ids[i]!;
      pool[i] = id;
      archive.mark[id] = epoch;
    }
    poolSize = population.size;
    const target = population.size + n;
    // Rejected children (already in the pool) are drawn again, within a per-generation cap.
    for (let attempts = 0; poolSize < target && attempts < 50 * n && archive.count < budget; attempts++) {
      const pa = population.ids[tournament()]! * genes;
      const pb = population.ids[tournament()]! * genes;
      const genomes = archive.genomes;
      if (rng.nextU32() < CROSSOVER * TWO_32) {
        let bits = 0;
        for (let j = 0; j < genes; j++) {
          if ((j & 31) === 0) bits = rng.nextU32();
          const fromA = (bits >>> (j & 31)) & 1;
          child[j] = genomes[(fromA ? pa : pb) + j]!;
          sibling[j] = genomes[(fromA ? pb : pa) + j]!;
        }
      } else {
        child.set(genomes.subarray(pa, pa + genes));
        sibling.set(genomes.subarray(pb, pb + genes));
      }
      mutate(child);
      mutate(sibling);
      const c = admit(child);
      if (c >= 0) pool[poolSize++] = c;
      if (poolSize < target) {
        const s = admit(sibling);
        if (s >= 0) pool[poolSize++] = s;
      }
    }
    if (poolSize === population.size) break; // no new child in 50n tries: the search has stalled
    survive(archive, m, pool, poolSize, spare, rng);
    [population, spare] = [spare, population];
  }
  opts.signal?.throwIfAborted();
  return finishResult(FN, genes, m, archive.count, archive.genomes, archive.values, archive.feasible, archive.count === space, archive.count);
}

/**
 * NSGA-II with an archive of every unique genome evaluated: at most `options.budget`
 * evaluations, population `options.population` (default 64), PRNG `options.seed`;
 * deterministic for a given seed. Infeasible genomes rank after every feasible one.
 * problem.seeds join the first population. A space no larger than the budget (and
 * EXHAUSTIVE_MAX) is enumerated instead, and the result says `exhaustive: true`.
 * Checks `options.signal` once per generation.
 *
 * @throws {InvalidArgumentError} on a malformed problem or options (seeds of the wrong length,
 *   genes out of range, more seeds than the budget), or an evaluate that returns a non-boolean
 *   or NaN for a feasible genome.
 * @throws whatever `options.signal` was aborted with.
 * @example
 * const r = nsga2.search(problem, { seed: 1, budget: 4000 });
 * for (const i of r.front) console.log(r.genomes.subarray(i * r.genes, (i + 1) * r.genes), r.values[i * 2], r.values[i * 2 + 1]);
 */
export const nsga2: SearchStrategy = {
  name: 'nsga2',
  description: 'NSGA-II genetic search with an archive of every genome evaluated, within an evaluation budget.',
  search(problem: SearchProblem, options: SearchOptions): SearchResult {
    const opts = checkSearch(FN, problem, options);
    const seeds = problem.seeds?.length ?? 0;
    if (seeds > opts.budget) {
      throw new InvalidArgumentError(`${FN}: problem.seeds holds ${seeds} genomes, more than options.budget (${opts.budget}) can evaluate`);
    }
    const space = spaceSize(problem.cardinality);
    if (space <= opts.budget && space <= EXHAUSTIVE_MAX) return enumerateAll(FN, problem, opts.signal);
    return run(problem, opts);
  },
};
