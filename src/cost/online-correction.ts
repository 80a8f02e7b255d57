// Online refinement of a fitted cost model: a per-key multiplicative correction learnt from
// (predicted, observed) pairs at run time, bounded so that one freak timing cannot derail it.

import { describe, InvalidArgumentError } from '../errors.js';
import { median } from '../stats.js';
import { checkInt, checkNumber, checkOptions } from '../validate.js';

export interface OnlineCorrectionOptions {
  /** Observations whose median sets the factor. @default 7 */
  readonly window?: number;
  /** Most the factor may change per observation, as a ratio > 1. @default 1.25 */
  readonly maxStep?: number;
  /** Most an observation may differ from the current factor before it is clipped, as a ratio > 1. @default 4 */
  readonly sampleClip?: number;
  /** The factor stays in [1 / maxFactor, maxFactor]. @default 8 */
  readonly maxFactor?: number;
}

/** The plain-object form of an {@link OnlineCorrection}, for JSON or msgpack. */
export interface OnlineCorrectionSnapshot {
  readonly version: 1;
  readonly options: Required<OnlineCorrectionOptions>;
  readonly entries: readonly {
    readonly key: string;
    /** ln(factor). */
    readonly logFactor: number;
    /** Clipped log ratios, oldest first. */
    readonly window: readonly number[];
    readonly count: number;
  }[];
}

const OPTION_KEYS = ['window', 'maxStep', 'sampleClip', 'maxFactor'] as const;
const DEFAULTS: Required<OnlineCorrectionOptions> = { window: 7, maxStep: 1.25, sampleClip: 4, maxFactor: 8 };

interface Entry {
  logFactor: number;
  window: number[];
  count: number;
}

/**
 * Per-key multiplicative corrections for a cost model: the corrected prediction for `key` is
 * `factor(key) * predicted`, where `predicted` is the uncorrected model output. Keys are the
 * caller's (e.g. `"cpu0/spmm"`). An unseen key has factor 1.
 *
 * Update rule, with ℓ = ln(factor) (ℓ_0 = 0), c = ln(sampleClip), s = ln(maxStep),
 * L = ln(maxFactor), N = window, for each observation t:
 *
 *     r_t = ln(observed_t / predicted_t)                       the log ratio the model missed by
 *     x_t = clamp(r_t, ℓ_{t-1} - c, ℓ_{t-1} + c)               no sample counts as more than c away
 *     m_t = median(x_{t-N+1}, ..., x_t)                        (the last N clipped samples)
 *     ℓ_t = clamp(ℓ_{t-1} + clamp(m_t - ℓ_{t-1}, -s, s), -L, L)
 *
 * Bounds: |ℓ_t - ℓ_{t-1}| <= s, so one observation, however extreme, changes the factor by at
 * most a ratio of maxStep (1.25 by default), and the factor stays in [1/8, 8]. Once the window
 * holds at least two agreeing samples, a single spike among N moves the median by at most one
 * order statistic (not at all when the rest agree), and it leaves the window after N more
 * observations. A consistent bias b with |ln b| <= L is matched exactly after
 * ceil(|ln b| / s) observations (4 for b = 2 with the defaults), since the median of agreeing
 * samples is ln b itself.
 *
 * @example
 * const corr = new OnlineCorrection();
 * for (let i = 0; i < 4; i++) corr.observe('cpu0/spmm', 1e-3, 2e-3);
 * corr.factor('cpu0/spmm'); // 2
 */
export class OnlineCorrection {
  readonly options: Required<OnlineCorrectionOptions>;
  readonly #entries = new Map<string, Entry>();
  readonly #clip: number;
  readonly #step: number;
  readonly #limit: number;

  /**
   * @throws {InvalidArgumentError} for an unknown option, a window not an integer in [1, 1000],
   *   or a ratio that is not a finite number > 1.
   */
  constructor(options?: OnlineCorrectionOptions) {
    const fn = 'OnlineCorrection';
    const o = checkOptions(fn, options, OPTION_KEYS);
    const window = o.window === undefined ? DEFAULTS.window : checkInt(fn, 'window', o.window, 1, 1000);
    const ratio = (what: string, v: number | undefined, d: number): number => {
      if (v === undefined) return d;
      checkNumber(fn, what, v);
      if (!(v > 1)) throw new InvalidArgumentError(`${fn}: ${what} must be a ratio > 1, got ${v}`);
      return v;
    };
    this.options = {
      window,
      maxStep: ratio('maxStep', o.maxStep, DEFAULTS.maxStep),
      sampleClip: ratio('sampleClip', o.sampleClip, DEFAULTS.sampleClip),
      maxFactor: ratio('maxFactor', o.maxFactor, DEFAULTS.maxFactor),
    };
    this.#clip = Math.log(this.options.sampleClip);
    this.#step = Math.log(this.options.maxStep);
    this.#limit = Math.log(this.options.maxFactor);
  }

  /**
   * The correction to multiply `key`'s predictions by; 1 for a key never observed.
   * @throws {InvalidArgumentError} when `key` is not a non-empty string.
   * @example
   * new OnlineCorrection().factor('gpu0/bfs'); // 1
   */
  factor(key: string): number {
    const e = this.#entries.get(checkKey('OnlineCorrection.factor', key));
    return e === undefined ? 1 : Math.exp(e.logFactor);
  }

  /**
   * Observations accepted for `key`.
   * @throws {InvalidArgumentError} when `key` is not a non-empty string.
   * @example
   * corr.count('gpu0/bfs'); // 0 before any observe()
   */
  count(key: string): number {
    return this.#entries.get(checkKey('OnlineCorrection.count', key))?.count ?? 0;
  }

  /** Keys with at least one observation, in first-seen order. */
  keys(): string[] {
    return [...this.#entries.keys()];
  }

  /**
   * Learn from one run: `predicted` is the uncorrected model prediction, `observed` the measured
   * value, both finite and > 0 (times or energies). Returns the new factor.
   *
   * @throws {InvalidArgumentError} for a bad key, or a predicted/observed value that is NaN,
   *   infinite, zero or negative; the state is unchanged then.
   * @example
   * corr.observe('cpu0/spmv', 2.0e-4, 2.6e-4); // 1.25 (one step of at most maxStep)
   */
  observe(key: string, predicted: number, observed: number): number {
    const fn = 'OnlineCorrection.observe';
    checkKey(fn, key);
    checkPositive(fn, 'predicted', predicted);
    checkPositive(fn, 'observed', observed);
    let e = this.#entries.get(key);
    if (e === undefined) {
      e = { logFactor: 0, window: [], count: 0 };
      this.#entries.set(key, e);
    }
    const prev = e.logFactor;
    const x = clamp(Math.log(observed / predicted), prev - this.#clip, prev + this.#clip);
    e.window.push(x);
    if (e.window.length > this.options.window) e.window.shift();
    const m = median(e.window);
    e.logFactor = clamp(prev + clamp(m - prev, -this.#step, this.#step), -this.#limit, this.#limit);
    e.count++;
    return Math.exp(e.logFactor);
  }

  /**
   * The state as a plain object (numbers, strings, arrays) that {@link OnlineCorrection.fromObject}
   * restores exactly.
   * @example
   * JSON.stringify(corr.toObject());
   */
  toObject(): OnlineCorrectionSnapshot {
    return {
      version: 1,
      options: { ...this.options },
      entries: [...this.#entries].map(([key, e]) => ({ key, logFactor: e.logFactor, window: [...e.window], count: e.count })),
    };
  }

  /**
   * Rebuild from {@link OnlineCorrection.toObject}'s output, checking every field.
   * @throws {InvalidArgumentError} naming the first malformed field.
   * @example
   * const again = OnlineCorrection.fromObject(JSON.parse(text));
   */
  static fromObject(snapshot: unknown): OnlineCorrection {
    const fn = 'OnlineCorrection.fromObject';
    const s = record(fn, 'snapshot', snapshot);
    if (s['version'] !== 1) throw new InvalidArgumentError(`${fn}: snapshot.version must be 1, got ${describe(s['version'])}`);
    let out: OnlineCorrection;
    try {
      out = new OnlineCorrection(record(fn, 'snapshot.options', s['options']) as OnlineCorrectionOptions);
    } catch (cause) {
      throw new InvalidArgumentError(`${fn}: snapshot.options: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    }
    const entries = s['entries'];
    if (!Array.isArray(entries)) throw new InvalidArgumentError(`${fn}: snapshot.entries must be an array, got ${describe(entries)}`);
    entries.forEach((raw: unknown, i) => {
      const at = `snapshot.entries[${i}]`;
      const e = record(fn, at, raw);
      const key = checkKey(fn, e['key'], `${at}.key`);
      if (out.#entries.has(key)) throw new InvalidArgumentError(`${fn}: ${at}.key ${JSON.stringify(key)} appears twice`);
      const logFactor = checkNumber(fn, `${at}.logFactor`, e['logFactor'], -out.#limit, out.#limit);
      const window = e['window'];
      if (!Array.isArray(window) || window.length > out.options.window) {
        throw new InvalidArgumentError(`${fn}: ${at}.window must be an array of at most ${out.options.window} numbers, got ${describe(window)}`);
      }
      window.forEach((v: unknown, j) => checkNumber(fn, `${at}.window[${j}]`, v));
      const count = checkInt(fn, `${at}.count`, e['count'], Math.max(1, window.length));
      out.#entries.set(key, { logFactor, window: [...(window as number[])], count });
    });
    return out;
  }
}

function checkKey(fn: string, key: unknown, what = 'key'): string {
  if (typeof key !== 'string' || key.length === 0) {
    throw new InvalidArgumentError(`${fn}: ${what} must be a non-empty string, got ${describe(key)}`);
  }
  return key;
}

function checkPositive(fn: string, what: string, v: unknown): void {
  if (typeof v !== 'number' || !(v > 0) || v === Infinity) {
    throw new InvalidArgumentError(`${fn}: ${what} must be a finite number > 0, got ${describe(v)}`);
  }
}

function record(fn: string, what: string, v: unknown): Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    throw new InvalidArgumentError(`${fn}: ${what} must be an object, got ${describe(v)}`);
  }
  return v as Record<string, unknown>;
}

function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}
