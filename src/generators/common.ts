// Argument checks, size limits and edge weights shared by the generators (internal; index.ts
// re-exports the public parts). Sizes are refused before anything is allocated.

import type { Precision } from '../data/dense.js';
import { CsrMatrix, type ValueArray } from '../data/csr.js';
import { describe, InvalidArgumentError, LimitError } from '../errors.js';
import { checkMemory } from '../limits.js';
import { checkEnum, MAX_INDEX } from '../validate.js';
import { fmix32, type Seed, seedToU32 } from './rng.js';

/** Most stored entries a generator produces: the entries must fit 32-bit row pointers. */
export const MAX_GENERATED_ENTRIES = MAX_INDEX;

/** Options every graph generator accepts. */
export interface GraphOptions {
  /**
   * Seed of the random stream: the same seed and parameters give the same arrays, byte for
   * byte, on every machine.
   * @default 0
   */
  readonly seed?: Seed;
  /**
   * Give every edge a weight uniform in (0, 1] of this precision, a hash of the seed and the
   * edge's endpoints: the same in both directions of an undirected edge, and drawing it does
   * not change the structure. Without it the graph is a pattern matrix.
   * @default undefined (pattern matrix, no values)
   */
  readonly weights?: Precision;
}

export const GRAPH_OPTION_KEYS = ['seed', 'weights'] as const;
export const PRECISIONS: readonly Precision[] = ['f32', 'f64'];

export function checkSpecObject(fn: string, options: unknown): void {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new InvalidArgumentError(`${fn}: options must be an object, got ${describe(options)}`);
  }
}

export function checkSeed(fn: string, seed: unknown): Seed {
  if (seed === undefined) return 0;
  seedToU32(seed as Seed, fn);
  return seed as Seed;
}

export function checkWeights(fn: string, weights: unknown): Precision | undefined {
  return weights === undefined ? undefined : checkEnum(fn, 'weights', weights, PRECISIONS);
}

/**
 * A required integer >= `min`: InvalidArgumentError when it is not one, LimitError when it is
 * above `limit` (a valid request dype refuses to allocate).
 */
export function checkSize(fn: string, what: string, value: unknown, min: number, limit: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new InvalidArgumentError(`${fn}: ${what} must be an integer, got ${describe(value)}`);
  }
  if (value < min) throw new InvalidArgumentError(`${fn}: ${what} must be at least ${min}, got ${value}`);
  if (value > limit) throw new LimitError(`${fn}: ${what} = ${value} is above the limit of ${limit}`);
  return value;
}

/**
 * Bytes a generator needs per stored entry and per vertex at its peak: the edge list it draws
 * (two 32-bit ends), the CSR it builds (a 32-bit column index and at most an f64 weight) and
 * the row pointers and per-vertex counters.
 */
export const GENERATED_BYTES_PER_ENTRY = 20;
export const GENERATED_BYTES_PER_VERTEX = 12;

/**
 * Refuse a result that would store more than MAX_GENERATED_ENTRIES entries, or whose arrays
 * would not fit the memory budget, before anything is allocated.
 */
export function checkEntries(fn: string, entries: number, detail: string, vertices = 0): void {
  if (entries > MAX_GENERATED_ENTRIES) {
    throw new LimitError(`${fn}: ${detail} would store ${entries} entries, more than the limit of ${MAX_GENERATED_ENTRIES}`);
  }
  checkMemory(fn, `${detail} (${vertices} vertices, ${entries} entries)`, entries * GENERATED_BYTES_PER_ENTRY + vertices * GENERATED_BYTES_PER_VERTEX);
}

/** A probability: a finite number in [0, 1]. */
export function checkProbability(fn: string, what: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new InvalidArgumentError(`${fn}: ${what} must be a number in [0, 1], got ${describe(value)}`);
  }
  return value;
}

/**
 * Edge weights as a hash of (seed, row, column), uniform in (0, 1]: (k + 1) / 2^24 for f32,
 * (k + 1) / 2^53 for f64. A weight depends only on its endpoints, so duplicate edges agree, an
 * undirected edge gets the same weight in both directions (hashed as (min, max)), and the
 * structure drawn from a seed is the same with or without weights.
 */
export function pairWeights(seed: Seed, rows: number, rowPtr: Int32Array, colIdx: Int32Array, precision: Precision, symmetric: boolean): ValueArray {
  const key1 = fmix32(seedToU32(seed) ^ 0x3c6ef372);
  const key2 = fmix32(key1 ^ 0xa54ff53a);
  const out = precision === 'f32' ? new Float32Array(colIdx.length) : new Float64Array(colIdx.length);
  for (let i = 0; i < rows; i++) {
    const end = rowPtr[i + 1]!;
    for (let p = rowPtr[i]!; p < end; p++) {
      const j = colIdx[p]!;
      const u = symmetric && j < i ? j : i;
      const v = symmetric && j < i ? i : j;
      const hi = hashPair(key1, u, v) >>> 8; // 24 bits
      if (precision === 'f32') {
        out[p] = (hi + 1) / 16777216;
      } else {
        const lo = hashPair(key2, u, v) >>> 3; // 29 more bits
        out[p] = (hi * 536870912 + lo + 1) / 9007199254740992;
      }
    }
  }
  return out;
}

/** The pattern graph `g` with values from {@link pairWeights}, sharing its structure arrays. */
export function withWeights(g: CsrMatrix, seed: Seed, precision: Precision): CsrMatrix {
  const values = pairWeights(seed, g.rows, g.rowPtr as Int32Array, g.colIdx, precision, g.symmetric);
  return new CsrMatrix({ rows: g.rows, cols: g.cols, rowPtr: g.rowPtr, colIdx: g.colIdx, values, symmetric: g.symmetric });
}

/** MurmurHash3 (x86, 32-bit) of the two words (u, v) under `key`. */
function hashPair(key: number, u: number, v: number): number {
  let h = key;
  for (let i = 0; i < 2; i++) {
    let k = Math.imul(i === 0 ? u : v, 0xcc9e2d51);
    k = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  return fmix32(h ^ 8);
}

/** Stream id of the vertex permutation (see Rng); edge blocks use streams 0, 1, 2, ... */
export const PERMUTATION_STREAM = 0xfffffffe;
