// Fitting cost-model coefficients to measured timings: relative-error least squares over model
// terms, and the robust summaries of repeated timings that feed it.

import { describe, InvalidArgumentError } from '../errors.js';
import { quantileSorted } from '../stats.js';
import { checkBoolean, checkInt, checkOptions } from '../validate.js';
import { checkSystem, leastSquares, MAX_FIT_COLUMNS, MAX_FIT_ROWS, nnls } from './nnls.js';

export { leastSquares, MAX_FIT_COLUMNS, MAX_FIT_ROWS, nnls, type NnlsOptions } from './nnls.js';
export { OnlineCorrection, type OnlineCorrectionOptions, type OnlineCorrectionSnapshot } from './online-correction.js';

export interface FitRelativeOptions {
  /** Constrain every coefficient to be >= 0 (costs do not go down as work goes up). @default true */
  readonly nonNegative?: boolean;
  /**
   * Coefficients to pull the fit towards (e.g. spec-derived defaults), and how hard: each
   * coefficient c_j with prior p_j > 0 adds the pseudo-row weight * (c_j / p_j - 1) to the
   * squared relative errors. Keeps a fit with few rows from trading one term for another.
   */
  readonly prior?: { readonly coefficients: ArrayLike<number>; readonly weight: number };
}

const FIT_OPTION_KEYS = ['nonNegative', 'prior'] as const;

/** How far predictions are from observations, as |predicted - observed| / observed. */
export interface RelativeErrorSpread {
  readonly median: number;
  /** 90th percentile (linear interpolation between order statistics). */
  readonly p90: number;
  readonly max: number;
}

export interface RelativeFit {
  /** One coefficient per term column. */
  readonly coefficients: Float64Array;
  /** Mean absolute relative error of the fit on its own rows. */
  readonly mape: number;
  readonly residualSpread: RelativeErrorSpread;
  /** Rows (observations) the fit used. */
  readonly rows: number;
}

/**
 * Fit `observed ≈ terms · c` minimising the sum of squared relative errors
 * Σ_i ((terms_i · c - y_i) / y_i)^2, so a 1 µs kernel mispredicted by 50% counts as much as a
 * 10 s one mispredicted by 50% (plain least squares would fit only the largest inputs). This is
 * ordinary least squares on rows scaled by 1 / y_i, solved by {@link nnls} (default) or
 * {@link leastSquares}.
 *
 * @param terms rows x cols, row-major: the model's terms (e.g. 1, nnz, rows, nnz * k) per row.
 * @param observed length rows, each > 0: one timing per row, already robust (see
 *   {@link robustRepeats}).
 * @throws {InvalidArgumentError} for bad sizes or options, rows < cols (underdetermined), a
 *   NaN/Infinity in the terms, or an observation that is not a finite number > 0 (the message
 *   names the index and value).
 * @example
 * const terms = Float64Array.of(1, 100, 1, 1000, 1, 10000); // [1, nnz] per row
 * const fit = fitRelative(terms, 3, 2, Float64Array.of(2e-6 + 1e-7, 2e-6 + 1e-6, 2e-6 + 1e-5));
 * fit.coefficients; // ≈ [2e-6, 1e-9]; fit.mape ≈ 0
 */
export function fitRelative(terms: Float64Array, rows: number, cols: number, observed: Float64Array, options?: FitRelativeOptions): RelativeFit {
  const fn = 'fitRelative';
  const opts = checkOptions(fn, options, FIT_OPTION_KEYS);
  const nonNegative = opts.nonNegative === undefined ? true : checkBoolean(fn, 'nonNegative', opts.nonNegative);
  checkInt(fn, 'rows', rows, 1, MAX_FIT_ROWS);
  checkInt(fn, 'cols', cols, 1, MAX_FIT_COLUMNS);
  if (rows < cols) {
    throw new InvalidArgumentError(`${fn}: ${rows} rows cannot determine ${cols} coefficients (underdetermined: need rows >= cols)`);
  }
  if (!(observed instanceof Float64Array)) {
    throw new InvalidArgumentError(`${fn}: observed must be a Float64Array, got ${describe(observed)}`);
  }
  if (observed.length !== rows) throw new InvalidArgumentError(`${fn}: observed has ${observed.length} elements, rows = ${rows}`);
  for (let i = 0; i < rows; i++) {
    const y = observed[i]!;
    if (!(y > 0) || y === Infinity) {
      throw new InvalidArgumentError(`${fn}: observed[${i}] = ${y} must be a finite number > 0 (relative error divides by it)`);
    }
  }
  checkSystem(fn, terms, rows, cols, observed, 'terms', 'observed');

  const prior = opts.prior;
  const priorRows: number[] = [];
  if (prior !== undefined) {
    if (prior === null || typeof prior !== 'object' || prior.coefficients?.length !== cols || !(prior.weight >= 0 && Number.isFinite(prior.weight))) {
      throw new InvalidArgumentError(`${fn}: prior must be { coefficients: ${cols} numbers, weight: a finite number >= 0 }, got ${describe(prior)}`);
    }
    for (let j = 0; j < cols; j++) if (prior.coefficients[j]! > 0 && Number.isFinite(prior.coefficients[j]!) && prior.weight > 0) priorRows.push(j);
  }
  const total = rows + priorRows.length;
  const scaled = new Float64Array(total * cols);
  for (let i = 0; i < rows; i++) {
    const inv = 1 / observed[i]!;
    for (let j = 0; j < cols; j++) scaled[i * cols + j] = terms[i * cols + j]! * inv;
  }
  const target = new Float64Array(total).fill(1);
  priorRows.forEach((j, r) => {
    scaled[(rows + r) * cols + j] = prior!.weight / prior!.coefficients[j]!;
    target[rows + r] = prior!.weight;
  });
  const coefficients = nonNegative ? nnls(scaled, total, cols, target) : leastSquares(scaled, total, cols, target);

  const errors = new Float64Array(rows);
  let sum = 0;
  for (let i = 0; i < rows; i++) {
    let predicted = 0;
    for (let j = 0; j < cols; j++) predicted += terms[i * cols + j]! * coefficients[j]!;
    const y = observed[i]!;
    const e = Math.abs(predicted - y) / y;
    errors[i] = e;
    sum += e;
  }
  errors.sort();
  return {
    coefficients,
    mape: sum / rows,
    residualSpread: { median: quantileSorted(errors, 0.5), p90: quantileSorted(errors, 0.9), max: errors[rows - 1]! },
    rows,
  };
}

/**
 * The one timing to fit for a configuration measured several times: the median of the repeats,
 * which a single descheduled or cold run cannot drag (a mean would). Never fit single samples.
 *
 * @throws {InvalidArgumentError} when `samples` is not a non-empty array of finite numbers.
 * @example
 * robustRepeats([1.02, 0.98, 1.00, 9.7, 1.01]); // 1.01
 */
export function robustRepeats(samples: readonly number[]): number {
  return quantileSorted(sortedFinite('robustRepeats', samples), 0.5);
}

export interface OutlierReport {
  readonly median: number;
  /** Median absolute deviation from the median (unscaled). */
  readonly mad: number;
  /** Indices into the input whose modified z-score exceeds the threshold, ascending. */
  readonly outliers: readonly number[];
}

/**
 * Flag repeats that are far from the rest, by the modified z-score of Iglewicz and Hoaglin:
 * z_i = 0.6745 (x_i - median) / MAD, an outlier when |z_i| > threshold. When more than half the
 * samples are equal (MAD = 0, common with coarse clocks) the mean absolute deviation times
 * 1.2533 stands in for MAD / 0.6745; when that is 0 too, nothing is flagged.
 *
 * @param threshold @default 3.5
 * @throws {InvalidArgumentError} when `samples` is not a non-empty array of finite numbers, or
 *   the threshold is not a finite number > 0.
 * @example
 * findOutliers([1.02, 0.98, 1.0, 9.7, 1.01]).outliers; // [3]
 */
export function findOutliers(samples: readonly number[], threshold = 3.5): OutlierReport {
  const fn = 'findOutliers';
  if (typeof threshold !== 'number' || !(threshold > 0) || threshold === Infinity) {
    throw new InvalidArgumentError(`${fn}: threshold must be a finite number > 0, got ${describe(threshold)}`);
  }
  const sorted = sortedFinite(fn, samples);
  const median = quantileSorted(sorted, 0.5);
  const deviations = Float64Array.from(samples, (x) => Math.abs(x - median)).sort();
  const mad = quantileSorted(deviations, 0.5);
  let spread = mad / 0.6745;
  if (spread === 0) {
    let sum = 0;
    for (const d of deviations) sum += d;
    spread = (1.2533 * sum) / deviations.length;
  }
  const outliers: number[] = [];
  if (spread > 0) samples.forEach((x, i) => Math.abs(x - median) / spread > threshold && outliers.push(i));
  return { median, mad, outliers };
}

/** A sorted copy of `samples`, refusing an empty array and non-finite values by index. */
function sortedFinite(fn: string, samples: unknown): Float64Array {
  if (!Array.isArray(samples)) throw new InvalidArgumentError(`${fn}: samples must be an array of numbers, got ${describe(samples)}`);
  if (samples.length === 0) throw new InvalidArgumentError(`${fn}: samples is empty (need at least one timing)`);
  const out = new Float64Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const v: unknown = samples[i];
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new InvalidArgumentError(`${fn}: samples[${i}] = ${describe(v)} is not a finite number`);
    }
    out[i] = v;
  }
  return out.sort();
}
