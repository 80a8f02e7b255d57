// Banded symmetric matrices shaped like FEM stiffness matrices: every entry within a few
// columns of the diagonal, regular row lengths, strictly diagonally dominant (hence SPD).

import type { Precision } from '../data/dense.js';
import { CsrMatrix, type ValueArray } from '../data/csr.js';
import { InvalidArgumentError, LimitError } from '../errors.js';
import { checkEnum, checkOptions, MAX_INDEX } from '../validate.js';
import { checkEntries, checkProbability, checkSeed, checkSize, checkSpecObject, MAX_GENERATED_ENTRIES, PRECISIONS } from './common.js';
import { Rng, type Seed } from './rng.js';

export interface BandedOptions {
  /** Order of the square matrix. Required, at least 1. */
  readonly n: number;
  /** Entries (i, j) with |i - j| <= halfBandwidth may be stored. Required, in [0, n - 1]. */
  readonly halfBandwidth: number;
  /**
   * Probability that each off-diagonal position within the band is stored (its mirror is
   * stored with it). The diagonal is always stored.
   * @default 1
   */
  readonly fill?: number;
  /** Precision of the values. @default 'f64' */
  readonly precision?: Precision;
  /** Seed of the random stream (see GraphOptions.seed). @default 0 */
  readonly seed?: Seed;
}

const KEYS = ['n', 'halfBandwidth', 'fill', 'precision', 'seed'] as const;

/** Half-bandwidths above this would let f32 diagonals lose dominance to rounding. */
const MAX_HALF_BANDWIDTH = 2 ** 21;

/**
 * A symmetric n x n banded matrix with values: each position (i, j), 0 < j - i <=
 * halfBandwidth, is stored with probability `fill` together with (j, i), holding the same
 * value uniform in [-1, 1); the diagonal holds 1 + the sum of |values| of its row, so the
 * matrix is strictly diagonally dominant with a positive diagonal (symmetric positive
 * definite). The structure does not depend on the precision; f32 values are the f64 ones
 * truncated to 24 bits.
 *
 * @throws {InvalidArgumentError} on a missing or non-integer n or halfBandwidth, halfBandwidth
 *   outside [0, n - 1], fill outside [0, 1], an unknown precision, a bad seed or an unknown
 *   option.
 * @throws {LimitError} when n > 2^31 - 1, halfBandwidth > 2^21, or the expected number of
 *   entries exceeds 2^31 - 1.
 * @example
 * const a = bandedMatrix({ n: 10000, halfBandwidth: 8, fill: 0.5, seed: 4 });
 * a.symmetric; // true
 */
export function bandedMatrix(options: BandedOptions): CsrMatrix {
  const fn = 'bandedMatrix';
  checkSpecObject(fn, options);
  const opts = checkOptions(fn, options, KEYS);
  const n = checkSize(fn, 'n', opts.n, 1, MAX_INDEX);
  const k = checkSize(fn, 'halfBandwidth', opts.halfBandwidth, 0, MAX_HALF_BANDWIDTH);
  if (k > n - 1) throw new InvalidArgumentError(`${fn}: halfBandwidth must be at most n - 1 = ${n - 1}, got ${k}`);
  const fill = opts.fill === undefined ? 1 : checkProbability(fn, 'fill', opts.fill);
  const precision = opts.precision === undefined ? 'f64' : checkEnum(fn, 'precision', opts.precision, PRECISIONS);
  const seed = checkSeed(fn, opts.seed);
  const bandPositions = k * n - (k * (k + 1)) / 2; // strictly upper positions within the band
  const expected = n + 2 * fill * bandPositions;
  if (expected > MAX_GENERATED_ENTRIES) {
    throw new LimitError(
      `${fn}: n = ${n}, halfBandwidth = ${k}, fill = ${fill} would store about ${Math.round(expected)} entries, more than the limit of ${MAX_GENERATED_ENTRIES}`,
    );
  }
  checkEntries(fn, Math.ceil(expected), `n = ${n}, halfBandwidth = ${k}, fill = ${fill}`, n);

  // Upper triangle in row-major order, drawn one position at a time: a draw for presence,
  // then (when present) two for the value.
  const rng = new Rng(seed);
  const threshold = fill * 4294967296;
  let capacity = Math.min(bandPositions, Math.ceil(fill * bandPositions * 1.01) + 1024);
  let upCols = new Int32Array(capacity);
  let upVals = new Float64Array(capacity);
  const upCount = new Int32Array(n);
  const lowCount = new Int32Array(n);
  const absSum = new Float64Array(n);
  let count = 0;
  for (let i = 0; i < n; i++) {
    const last = Math.min(n - 1, i + k);
    for (let j = i + 1; j <= last; j++) {
      if (rng.nextU32() >= threshold) continue;
      if (count === capacity) {
        capacity = Math.min(bandPositions, Math.ceil(capacity * 1.5) + 1024);
        const c = new Int32Array(capacity);
        const v = new Float64Array(capacity);
        c.set(upCols);
        v.set(upVals);
        upCols = c;
        upVals = v;
      }
      // Two draws per value whatever the precision, so the structure does not depend on it;
      // the f32 value is the f64 one truncated to 24 bits.
      const hi = rng.nextU32();
      const lo = rng.nextU32();
      const value = precision === 'f32' ? ((hi >>> 8) - 8388608) / 8388608 : ((hi >>> 5) * 67108864 + (lo >>> 6) - 4503599627370496) / 4503599627370496;
      upCols[count] = j;
      upVals[count] = value;
      count++;
      upCount[i]!++;
      lowCount[j]!++;
      const a = Math.abs(value);
      absSum[i]! += a;
      absSum[j]! += a;
    }
  }
  const total = n + 2 * count;
  if (total > MAX_GENERATED_ENTRIES) {
    throw new LimitError(`${fn}: the drawn matrix would store ${total} entries, more than the limit of ${MAX_GENERATED_ENTRIES}`);
  }

  // Row i is [lower entries | diagonal | upper entries]. Lower entries of row j arrive from
  // rows i < j in increasing i, so every row comes out sorted.
  const rowPtr = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) rowPtr[i + 1] = rowPtr[i]! + lowCount[i]! + 1 + upCount[i]!;
  const colIdx = new Int32Array(total);
  const values: ValueArray = precision === 'f32' ? new Float32Array(total) : new Float64Array(total);
  const lowCursor = rowPtr.slice(0, n);
  let e = 0;
  for (let i = 0; i < n; i++) {
    const d = rowPtr[i]! + lowCount[i]!;
    colIdx[d] = i;
    values[d] = 1 + absSum[i]!;
    let p = d + 1;
    for (const end = e + upCount[i]!; e < end; e++, p++) {
      const j = upCols[e]!;
      const v = upVals[e]!;
      colIdx[p] = j;
      values[p] = v;
      const q = lowCursor[j]!++;
      colIdx[q] = i;
      values[q] = v;
    }
  }
  return new CsrMatrix({ rows: n, cols: n, rowPtr, colIdx, values, symmetric: true });
}
