// Erdős–Rényi G(n, m) graphs: exactly m distinct edges chosen uniformly at random, the
// structureless baseline (every vertex has about the same degree, no locality).

import type { CsrMatrix } from '../data/csr.js';
import { InvalidArgumentError } from '../errors.js';
import { checkBoolean, checkOptions, MAX_INDEX } from '../validate.js';
import { checkEntries, checkSeed, checkSize, checkSpecObject, checkWeights, GRAPH_OPTION_KEYS, type GraphOptions, withWeights } from './common.js';
import { edgeListToCsr } from './edge-list.js';
import { Rng } from './rng.js';

export interface ErdosRenyiOptions extends GraphOptions {
  /** Number of vertices. Required, at most 2^31 - 1. */
  readonly n: number;
  /**
   * Number of edges, exactly: distinct unordered pairs {u, v} (u != v) when undirected,
   * distinct ordered pairs (u, v) when directed. Required, at most the number of such pairs.
   */
  readonly m: number;
  /**
   * Directed edges (u -> v). Otherwise the graph is undirected, stores both directions and
   * has `symmetric: true`.
   * @default false
   */
  readonly directed?: boolean;
}

const KEYS = ['n', 'm', 'directed', ...GRAPH_OPTION_KEYS] as const;

/**
 * An Erdős–Rényi G(n, m) graph: m distinct edges drawn uniformly from all vertex pairs, no
 * self-loops. G(n, m) rather than G(n, p) so that the size is exactly what was asked and no
 * logarithm (whose last bits differ between engines) is needed; for large n the two models
 * are interchangeable with p = m / pairs. Sparse graphs draw pairs and redraw collisions;
 * dense ones (over 1/8 of all pairs) use selection sampling over every pair.
 *
 * @throws {InvalidArgumentError} on a missing or non-integer n or m, m above the number of
 *   pairs, a bad seed, or an unknown option.
 * @throws {LimitError} when n > 2^31 - 1 or the graph would store more than 2^31 - 1 entries.
 * @example
 * const g = erdosRenyiGraph({ n: 1000, m: 4000, seed: 3 });
 * g.nnz; // 8000 (both directions of 4000 edges)
 */
export function erdosRenyiGraph(options: ErdosRenyiOptions): CsrMatrix {
  const fn = 'erdosRenyiGraph';
  checkSpecObject(fn, options);
  const opts = checkOptions(fn, options, KEYS);
  const n = checkSize(fn, 'n', opts.n, 0, MAX_INDEX);
  const m = checkSize(fn, 'm', opts.m, 0, Number.MAX_SAFE_INTEGER);
  const directed = opts.directed === undefined ? false : checkBoolean(fn, 'directed', opts.directed);
  const seed = checkSeed(fn, opts.seed);
  const weights = checkWeights(fn, opts.weights);
  // Only compared against m, so the rounding of huge pair counts does not matter.
  const pairs = directed ? n * (n - 1) : (n * (n - 1)) / 2;
  if (m > pairs) {
    throw new InvalidArgumentError(`${fn}: m = ${m} is more than the ${pairs} ${directed ? 'ordered' : 'unordered'} pairs of ${n} vertices`);
  }
  checkEntries(fn, directed ? m : 2 * m, `n = ${n} with m = ${m}${directed ? '' : ' (undirected)'}`, n);

  const rng = new Rng(seed);
  const { src, dst } = m * 8 >= pairs ? selectPairs(rng, n, m, directed) : samplePairs(rng, n, m, directed);
  const g = edgeListToCsr(n, src, dst, { directed });
  return weights === undefined ? g : withWeights(g, seed, weights);
}

interface Edges {
  src: Int32Array;
  dst: Int32Array;
}

/**
 * Knuth's selection sampling (Algorithm S): walk every pair once and take it with probability
 * (still needed) / (still left). Exactly m pairs, uniform; pairs <= 8m, so the walk is cheap.
 */
function selectPairs(rng: Rng, n: number, m: number, directed: boolean): Edges {
  const src = new Int32Array(m);
  const dst = new Int32Array(m);
  let left = directed ? n * (n - 1) : (n * (n - 1)) / 2;
  let taken = 0;
  for (let u = 0; u < n && taken < m; u++) {
    for (let v = directed ? 0 : u + 1; v < n && taken < m; v++) {
      if (v === u) continue;
      if (rng.nextInt(left) < m - taken) {
        src[taken] = u;
        dst[taken] = v;
        taken++;
      }
      left--;
    }
  }
  return { src, dst };
}

/**
 * Draw pairs uniformly with replacement until m are distinct: the first m distinct pairs of an
 * i.i.d. uniform sequence are a uniform m-subset. Each round draws exactly the shortfall, so it
 * never overshoots; with m below 1/8 of the pairs the shortfall shrinks eightfold per round.
 */
function samplePairs(rng: Rng, n: number, m: number, directed: boolean): Edges {
  let src = new Int32Array(m + (m >>> 4) + 16);
  let dst = new Int32Array(src.length);
  let drawn = 0;
  let need = m;
  for (;;) {
    if (drawn + need > src.length) {
      const grow = Math.max(drawn + need, Math.ceil(src.length * 1.25));
      const s = new Int32Array(grow);
      const d = new Int32Array(grow);
      s.set(src.subarray(0, drawn));
      d.set(dst.subarray(0, drawn));
      src = s;
      dst = d;
    }
    for (let k = 0; k < need; k++) {
      let u: number;
      let v: number;
      do {
        u = rng.nextInt(n);
        v = rng.nextInt(n);
      } while (u === v);
      // Undirected pairs are stored as (min, max) so that {u, v} and {v, u} collide.
      src[drawn] = directed || u < v ? u : v;
      dst[drawn] = directed || u < v ? v : u;
      drawn++;
    }
    const distinct = edgeListToCsr(n, src.subarray(0, drawn), dst.subarray(0, drawn), { directed: true }).nnz;
    if (distinct === m) return { src: src.subarray(0, drawn), dst: dst.subarray(0, drawn) };
    need = m - distinct;
  }
}
