// Argument checks and size guards shared by the loaders, so every loader refuses the same bad
// options with the same messages and caps allocations the same way.

import { describe, InvalidArgumentError, LimitError } from '../errors.js';
import { DUPLICATE_POLICIES, type DuplicatePolicy } from '../data/coo.js';
import type { Precision } from '../data/dense.js';
import { checkBoolean, checkEnum, checkInt, MAX_INDEX } from '../validate.js';

/** Default budget of stored entries a loader accepts before refusing with a LimitError. */
export const DEFAULT_MAX_ENTRIES = MAX_INDEX;

/** Label used in error messages for in-memory input. */
export const BUFFER_LABEL = '<buffer>';

export const PRECISIONS: readonly Precision[] = ['f32', 'f64'];

export function checkPath(fn: string, path: unknown): string {
  if (typeof path !== 'string' || path.length === 0) {
    throw new InvalidArgumentError(`${fn}: path must be a non-empty string, got ${describe(path)}`);
  }
  return path;
}

export function checkInput(fn: string, input: unknown): string | Uint8Array {
  if (typeof input !== 'string' && !(input instanceof Uint8Array)) {
    throw new InvalidArgumentError(`${fn}: input must be a string or a Uint8Array, got ${describe(input)}`);
  }
  return input;
}

export function checkLabel(fn: string, label: unknown): string {
  if (label === undefined) return BUFFER_LABEL;
  if (typeof label !== 'string') throw new InvalidArgumentError(`${fn}: label must be a string, got ${describe(label)}`);
  return label;
}

export function optPrecision(fn: string, value: unknown): Precision {
  return value === undefined ? 'f64' : checkEnum(fn, 'precision', value, PRECISIONS);
}

export function optDuplicates(fn: string, value: unknown): DuplicatePolicy {
  return value === undefined ? 'sum' : checkEnum(fn, 'duplicates', value, DUPLICATE_POLICIES);
}

export function optBoolean(fn: string, what: string, value: unknown): boolean {
  return value === undefined ? false : checkBoolean(fn, what, value);
}

/** The `onWarning` option: a function, by default Node's process.emitWarning. */
export function optWarning(fn: string, value: unknown): (message: string) => void {
  if (value === undefined) return (message) => process.emitWarning(message, { code: 'DYPE_LOADER' });
  if (typeof value !== 'function') throw new InvalidArgumentError(`${fn}: onWarning must be a function, got ${describe(value)}`);
  return value as (message: string) => void;
}

export function optMaxEntries(fn: string, value: unknown): number {
  return value === undefined ? DEFAULT_MAX_ENTRIES : checkInt(fn, 'maxEntries', value, 0);
}

/**
 * How many entries to allocate for a count a header declares: never more than the input can
 * hold when each entry takes at least `minBytes` bytes (its newline included), so a lying header
 * in a small file cannot make the loader allocate gigabytes before it finds the file truncated.
 */
export function capacityFor(declared: number, maxBytes: number, minBytes: number): number {
  return Math.min(declared, Math.floor((maxBytes + 1) / minBytes));
}

/** Run an allocation, turning V8's RangeError for an impossible size into a LimitError. */
export function allocate<T>(fn: string, what: string, count: number, make: (n: number) => T): T {
  try {
    return make(count);
  } catch (e) {
    if (e instanceof RangeError) {
      throw new LimitError(`${fn}: cannot allocate ${what} for ${count} entries: ${e.message}`, { cause: e });
    }
    throw e;
  }
}

/** True when `v` rounds to a finite single-precision float. */
export function fitsF32(v: number): boolean {
  return Number.isFinite(Math.fround(v));
}
