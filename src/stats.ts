// Order statistics shared by every layer: the median and quantiles of timings and errors. One
// definition, so that a median reported by the CLI, used by calibration and learnt online are
// the same number for the same data (two copies used to interpolate even counts differently).

import { describe, InvalidArgumentError } from './errors.js';

/**
 * Quantile `q` of non-empty ascending data, interpolating linearly between order statistics
 * (Hyndman and Fan's type 7, as R and NumPy by default). No checks: for hot paths that sorted
 * their data already; see {@link quantile} for the checked form.
 * @example
 * quantileSorted(Float64Array.of(1, 2, 3, 4), 0.5); // 2.5
 */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  return quantileOfFirst(sorted, sorted.length, q);
}

/** Quantile q of the first `n` (>= 1) values of ascending `sorted`. */
function quantileOfFirst(sorted: ArrayLike<number>, n: number, q: number): number {
  const pos = (n - 1) * q;
  const lo = Math.floor(pos);
  // On an order statistic, that value itself: interpolating would turn an infinite neighbour into NaN.
  if (lo === pos) return sorted[lo]!;
  return sorted[lo]! + (sorted[lo + 1]! - sorted[lo]!) * (pos - lo);
}

/**
 * Quantile `q` in [0, 1] of `values` (not modified), as {@link quantileSorted}.
 * @throws {InvalidArgumentError} when `values` is empty or `q` is outside [0, 1].
 * @example
 * quantile([5, 1, 4, 2, 3], 0.9); // 4.6
 */
export function quantile(values: ArrayLike<number>, q: number, fn = 'quantile'): number {
  if (!(q >= 0 && q <= 1)) throw new InvalidArgumentError(`${fn}: q must be a number in [0, 1], got ${describe(q)}`);
  return sortedQuantile(fn, values, q);
}

/**
 * The median of `values` (not modified): the middle value, or halfway between the two middle
 * ones. Small arrays (the online correction's windows, a handful of repeats) are sorted in a
 * reused buffer, so the executor's per-operator learning allocates nothing.
 * @throws {InvalidArgumentError} when `values` is empty.
 * @example
 * median([3, 1, 2, 10]); // 2.5
 */
export function median(values: ArrayLike<number>, fn = 'median'): number {
  return sortedQuantile(fn, values, 0.5);
}

const SMALL = 32;
const scratch = new Float64Array(SMALL);

/** Quantile q of `values`, sorted in a copy: the shared scratch buffer when small. */
function sortedQuantile(fn: string, values: ArrayLike<number>, q: number): number {
  const n = values?.length;
  if (typeof n !== 'number' || n === 0) throw new InvalidArgumentError(`${fn}: values must be a non-empty array of numbers, got ${describe(values)}`);
  if (n > SMALL) return quantileSorted(Float64Array.from(values).sort(), q);
  const s = scratch;
  for (let i = 0; i < n; i++) {
    // Insertion sort: at most 32 values, no allocation.
    const v = values[i]!;
    let j = i;
    while (j > 0 && s[j - 1]! > v) {
      s[j] = s[j - 1]!;
      j--;
    }
    s[j] = v;
  }
  return quantileOfFirst(s, n, q);
}

/** The largest difference between two arrays over the largest magnitude of `want` (0: equal). */
export function relativeDeviation(got: ArrayLike<number>, want: ArrayLike<number>): number {
  let diff = 0;
  let scale = 0;
  for (let i = 0; i < want.length; i++) {
    diff = Math.max(diff, Math.abs(got[i]! - want[i]!));
    scale = Math.max(scale, Math.abs(want[i]!));
  }
  return scale > 0 ? diff / scale : diff;
}
