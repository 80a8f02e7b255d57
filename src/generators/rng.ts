// The one pseudo-random generator every dype generator draws from: xoshiro128** seeded through
// splitmix32. Integer arithmetic only (Math.imul, shifts), so a seed gives the same stream on
// every engine and machine; floats are built from whole bits, never from Math.log/exp/pow.

import { describe, InvalidArgumentError } from '../errors.js';

/** A seed: an integer in [0, 2^32 - 1], or any string (hashed with FNV-1a over its UTF-8 bytes). */
export type Seed = number | string;

/** Largest integer seed. */
export const MAX_SEED = 2 ** 32 - 1;

const TWO_32 = 4294967296;
const TWO_53 = 9007199254740992;
const TWO_M24 = 1 / 16777216;
const TWO_M53 = 1 / TWO_53;

/**
 * Reduce a seed to 32 bits: integers map to themselves, strings to their FNV-1a hash.
 *
 * @throws {InvalidArgumentError} when `seed` is neither a string nor an integer in [0, 2^32 - 1].
 * @example
 * seedToU32(42);      // 42
 * seedToU32('graph'); // a fixed 32-bit value
 */
export function seedToU32(seed: Seed, fn = 'seedToU32'): number {
  if (typeof seed === 'string') {
    let h = 0x811c9dc5;
    for (const byte of new TextEncoder().encode(seed)) h = Math.imul(h ^ byte, 0x01000193);
    return h >>> 0;
  }
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed > MAX_SEED) {
    throw new InvalidArgumentError(`${fn}: seed must be an integer in [0, ${MAX_SEED}] or a string, got ${describe(seed)}`);
  }
  return seed;
}

/**
 * Murmur3's 32-bit finaliser: a bijection on 32-bit words with full avalanche.
 * @internal
 */
export function fmix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return x ^ (x >>> 16);
}

/**
 * A seeded xoshiro128** stream (period 2^128 - 1). `stream` selects one of many independent
 * streams for the same seed, so work split into blocks (one stream per block) gives the same
 * bytes however the blocks are scheduled.
 *
 * @throws {InvalidArgumentError} on a seed that is not a string or an integer in [0, 2^32 - 1],
 *   or a stream that is not an integer in [0, 2^32 - 1].
 * @example
 * const rng = new Rng(7);
 * rng.nextU32();   // integer in [0, 2^32)
 * rng.nextFloat(); // double in [0, 1), 53 random bits
 * rng.nextInt(6);  // integer in [0, 6), unbiased
 */
export class Rng {
  // The state lives in fields rather than an array so V8 keeps them unboxed; hot loops that
  // need more speed copy them into locals (see kronecker.ts) and write them back.
  /** @internal */
  s0: number;
  /** @internal */
  s1: number;
  /** @internal */
  s2: number;
  /** @internal */
  s3: number;

  constructor(seed: Seed, stream = 0) {
    const base = seedToU32(seed, 'Rng');
    if (!Number.isInteger(stream) || stream < 0 || stream > MAX_SEED) {
      throw new InvalidArgumentError(`Rng: stream must be an integer in [0, ${MAX_SEED}], got ${describe(stream)}`);
    }
    // Two splitmix32 sequences, one from the seed and one from the stream, XORed word by word:
    // distinct (seed, stream) pairs give unrelated 128-bit states.
    let a = base;
    let b = Math.imul(stream, 0x2545f491) ^ 0x5bd1e995;
    const words = [0, 0, 0, 0];
    for (let i = 0; i < 4; i++) {
      a = (a + 0x9e3779b9) | 0;
      b = (b + 0x7f4a7c15) | 0;
      words[i] = fmix32(a) ^ fmix32(b ^ 0x68e31da4);
    }
    [this.s0, this.s1, this.s2, this.s3] = words as [number, number, number, number];
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1; // the one forbidden state
  }

  /** Next 32 random bits as an unsigned integer in [0, 2^32). */
  nextU32(): number {
    // State words are kept as signed int32 (Smis in V8); only the result is made unsigned.
    const s0 = this.s0;
    const s1 = this.s1;
    const m = Math.imul(s1, 5);
    const result = Math.imul((m << 7) | (m >>> 25), 9) >>> 0;
    const s2 = this.s2 ^ s0;
    const s3 = this.s3 ^ s1;
    this.s1 = s1 ^ s2;
    this.s0 = s0 ^ s3;
    this.s2 = s2 ^ (s1 << 9);
    this.s3 = (s3 << 11) | (s3 >>> 21);
    return result;
  }

  /** A double uniform in [0, 1) with 53 random bits (two draws); exact, no rounding. */
  nextFloat(): number {
    const hi = this.nextU32() >>> 5; // 27 bits
    const lo = this.nextU32() >>> 6; // 26 bits
    return (hi * 67108864 + lo) * TWO_M53;
  }

  /** A float uniform in [0, 1) with 24 random bits (one draw): exactly representable as f32. */
  nextFloat24(): number {
    return (this.nextU32() >>> 8) * TWO_M24;
  }

  /**
   * An integer uniform in [0, n), unbiased (rejection of the short final bucket), for any
   * integer n in [1, 2^53]. One draw for n <= 2^32 (rarely more), two draws above.
   * @throws {InvalidArgumentError} when n is not an integer in [1, 2^53].
   */
  nextInt(n: number): number {
    if (!(n >= 1 && n <= TWO_53 && Number.isInteger(n))) {
      throw new InvalidArgumentError(`Rng.nextInt: n must be an integer in [1, 2^53], got ${describe(n)}`);
    }
    if (n <= TWO_32) {
      if (n === TWO_32) return this.nextU32();
      // Values below `reject` would land in the partial bucket at the bottom; 2^32 mod n is
      // computed exactly in doubles.
      const reject = TWO_32 % n;
      for (;;) {
        const u = this.nextU32();
        if (u >= reject) return u % n;
      }
    }
    const reject = TWO_53 % n;
    for (;;) {
      const u = (this.nextU32() >>> 11) * TWO_32 + this.nextU32(); // 53 bits
      if (u >= reject) return u % n;
    }
  }

  /** A Bernoulli trial: true with probability `p` (to 2^-32), one draw. */
  nextBool(p: number): boolean {
    return this.nextU32() < p * TWO_32;
  }
}

/**
 * A uniformly random permutation of [0, n) (Fisher-Yates), as an Int32Array.
 *
 * @throws {InvalidArgumentError} when `n` is not an integer in [0, 2^31 - 1].
 * @example
 * const perm = randomPermutation(new Rng(1), 10); // e.g. Int32Array [3, 7, 0, ...]
 */
export function randomPermutation(rng: Rng, n: number): Int32Array {
  if (!Number.isInteger(n) || n < 0 || n > 2 ** 31 - 1) {
    throw new InvalidArgumentError(`randomPermutation: n must be an integer in [0, 2^31 - 1], got ${describe(n)}`);
  }
  const perm = new Int32Array(n);
  for (let i = 0; i < n; i++) perm[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const j = rng.nextInt(i + 1);
    const t = perm[i]!;
    perm[i] = perm[j]!;
    perm[j] = t;
  }
  return perm;
}
