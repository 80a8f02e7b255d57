// R-MAT / stochastic Kronecker graphs as in Graph500 and GAP: power-law degree distribution
// with a few huge hubs, the standard stand-in for social and web graphs.

import type { CsrMatrix } from '../data/csr.js';
import { checkBoolean, checkOptions } from '../validate.js';
import { InvalidArgumentError } from '../errors.js';
import {
  checkEntries,
  checkProbability,
  checkSeed,
  checkSize,
  checkSpecObject,
  checkWeights,
  GRAPH_OPTION_KEYS,
  type GraphOptions,
  PERMUTATION_STREAM,
  withWeights,
} from './common.js';
import { edgeListToCsr } from './edge-list.js';
import { randomPermutation, Rng } from './rng.js';

/** Largest Kronecker scale accepted (2^30 vertices). */
export const MAX_KRONECKER_SCALE = 30;

/** Edges drawn per random stream: the blocks are independent, so they could run in parallel. */
const BLOCK_EDGES = 1 << 16;

export interface KroneckerOptions extends GraphOptions {
  /** log2 of the vertex count: the graph has 2^scale vertices. Required, at most 30. */
  readonly scale: number;
  /**
   * Edges generated per vertex: edgeFactor * 2^scale edges are drawn before self-loops and
   * duplicates are removed.
   * @default 16
   */
  readonly edgeFactor?: number;
  /** Probability of the top-left quadrant at each level. @default 0.57 (Graph500) */
  readonly a?: number;
  /** Probability of the top-right quadrant. @default 0.19 (Graph500) */
  readonly b?: number;
  /** Probability of the bottom-left quadrant (the bottom-right one gets 1 - a - b - c). @default 0.19 (Graph500) */
  readonly c?: number;
  /**
   * Keep edges directed (src -> dst). Otherwise the graph is undirected: both directions are
   * stored and the result has `symmetric: true`.
   * @default false
   */
  readonly directed?: boolean;
  /**
   * Hang a path of this many extra vertices (ids 2^scale and up) off the initiator's favourite
   * vertex, normally the biggest hub: the long thin tendrils of web and social crawls, which
   * give a small-world core a large diameter (a BFS through them runs one thin level per
   * vertex). @default 0
   */
  readonly tail?: number;
}

const KEYS = ['scale', 'edgeFactor', 'a', 'b', 'c', 'directed', 'tail', ...GRAPH_OPTION_KEYS] as const;

/**
 * An R-MAT / Kronecker graph on 2^scale vertices: edgeFactor * 2^scale edges, each placed by
 * descending `scale` levels of the 2x2 initiator [[a, b], [c, d]] (Graph500: 0.57, 0.19, 0.19,
 * 0.05), then vertex ids relabelled by a random permutation (as Graph500 and GAP do, so the hubs
 * are not all near id 0). Self-loops and duplicate edges are removed; columns are sorted.
 * Deterministic: the same options give the same arrays on every machine.
 *
 * @throws {InvalidArgumentError} on a missing or non-integer scale or edgeFactor, initiator
 *   probabilities outside [0, 1] or summing above 1, a bad seed, or an unknown option.
 * @throws {LimitError} when scale > 30 or the graph would store more than 2^31 - 1 entries.
 * @example
 * const g = kroneckerGraph({ scale: 16, edgeFactor: 16, seed: 1 });
 * g.rows;      // 65536
 * g.symmetric; // true
 */
export function kroneckerGraph(options: KroneckerOptions): CsrMatrix {
  const fn = 'kroneckerGraph';
  checkSpecObject(fn, options);
  const opts = checkOptions(fn, options, KEYS);
  const scale = checkSize(fn, 'scale', opts.scale, 0, MAX_KRONECKER_SCALE);
  const edgeFactor = opts.edgeFactor === undefined ? 16 : checkSize(fn, 'edgeFactor', opts.edgeFactor, 1, Number.MAX_SAFE_INTEGER);
  const a = opts.a === undefined ? 0.57 : checkProbability(fn, 'a', opts.a);
  const b = opts.b === undefined ? 0.19 : checkProbability(fn, 'b', opts.b);
  const c = opts.c === undefined ? 0.19 : checkProbability(fn, 'c', opts.c);
  // A little slack so that probabilities written to sum to 1 are not refused for rounding.
  if (a + b + c > 1 + 1e-9) {
    throw new InvalidArgumentError(`${fn}: a + b + c must be at most 1 (d = 1 - a - b - c), got ${a + b + c}`);
  }
  const directed = opts.directed === undefined ? false : checkBoolean(fn, 'directed', opts.directed);
  const seed = checkSeed(fn, opts.seed);
  const weights = checkWeights(fn, opts.weights);

  const tail = opts.tail === undefined ? 0 : checkSize(fn, 'tail', opts.tail, 0, 2 ** 31 - 1 - 2 ** scale);
  const core = 2 ** scale;
  const n = core + tail;
  const drawn = edgeFactor * core;
  const m = drawn + tail;
  checkEntries(
    fn,
    directed ? m : 2 * m,
    `scale ${scale} with edgeFactor ${edgeFactor}${tail > 0 ? ` and a tail of ${tail}` : ''}${directed ? '' : ' (undirected)'}`,
    n,
  );

  const src = new Int32Array(m);
  const dst = new Int32Array(m);
  // Quadrant thresholds on a 32-bit draw: one draw and three comparisons per level. They are
  // shifted down by 2^31 to compare against draws whose sign bit is flipped (see generateBlock).
  const tA = Math.floor(a * 4294967296) - 2147483648;
  const tAB = Math.floor((a + b) * 4294967296) - 2147483648;
  const tABC = Math.floor(Math.min(1, a + b + c) * 4294967296) - 2147483648;
  for (let block = 0; block * BLOCK_EDGES < drawn; block++) {
    const rng = new Rng(seed, block);
    generateBlock(rng, scale, tA, tAB, tABC, src, dst, block * BLOCK_EDGES, Math.min(drawn, (block + 1) * BLOCK_EDGES));
  }
  // The tail: vertex 0 before relabelling is the initiator's favourite (quadrant a at every
  // level), the biggest hub; the path runs 0 -> core -> core + 1 -> ... and keeps its ids.
  for (let i = 0; i < tail; i++) {
    src[drawn + i] = i === 0 ? 0 : core + i - 1;
    dst[drawn + i] = core + i;
  }
  const corePerm = randomPermutation(new Rng(seed, PERMUTATION_STREAM), core);
  let perm = corePerm;
  if (tail > 0) {
    perm = new Int32Array(n);
    perm.set(corePerm);
    for (let v = core; v < n; v++) perm[v] = v;
  }
  const g = edgeListToCsr(n, src, dst, { directed, perm });
  return weights === undefined ? g : withWeights(g, seed, weights);
}

/** Edges [from, to): the xoshiro128** state is kept in locals, the hot loop's only state. */
function generateBlock(rng: Rng, scale: number, tA: number, tAB: number, tABC: number, src: Int32Array, dst: Int32Array, from: number, to: number): void {
  let s0 = rng.s0;
  let s1 = rng.s1;
  let s2 = rng.s2;
  let s3 = rng.s3;
  for (let e = from; e < to; e++) {
    let row = 0;
    let col = 0;
    for (let level = 0; level < scale; level++) {
      // xoshiro128**, as Rng.nextU32.
      const x = Math.imul(s1, 5);
      const u = Math.imul((x << 7) | (x >>> 25), 9) ^ 0x80000000;
      const t = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = (s3 << 11) | (s3 >>> 21);
      // u is the draw minus 2^31 (sign bit flipped), so it stays an int32. Quadrant 0..3 =
      // [a | b | c | d] gives (row bit, column bit) without a branch.
      const q = +(u >= tA) + +(u >= tAB) + +(u >= tABC);
      row = (row << 1) | (q >>> 1);
      col = (col << 1) | (q & 1);
    }
    src[e] = row;
    dst[e] = col;
  }
  rng.s0 = s0;
  rng.s1 = s1;
  rng.s2 = s2;
  rng.s3 = s3;
}
