// Argument checks shared by every public entry point: they run before any WebAssembly or native
// code sees a value, and their errors name the calling function and the offending value.

import { describe, InvalidArgumentError } from './errors.js';
import { optionalAddon } from './native/addon.js';

/** Largest vertex/row count dype accepts: indices are stored as signed 32-bit integers. */
export const MAX_INDEX = 2 ** 31 - 1;

/** Edit distance (Levenshtein plus adjacent transpositions), for "did you mean" suggestions on misspelled names. */
export function editDistance(a: string, b: string): number {
  // Optimal string alignment: an adjacent transposition ("gnc" for "gcn") counts as one edit, as
  // typing slips make them; otherwise a swap ties with unrelated names two edits away.
  let before = new Array<number>(b.length + 1).fill(0);
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = new Array<number>(b.length + 1);
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, before[j - 2]! + 1);
    }
    before = prev;
    prev = row;
  }
  return prev[b.length]!;
}

/** The closest of `candidates` to `name`, when it is close enough to be a plausible typo. */
export function suggest(name: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(name.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(name.length / 3)) ? best : undefined;
}

/**
 * Check that `options` is undefined or a plain object whose keys are all in `allowed`.
 * Returns the options object (or an empty one) typed as given.
 */
export function checkOptions<T extends object>(fn: string, options: T | undefined, allowed: readonly (keyof T & string)[]): Partial<T> {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new InvalidArgumentError(`${fn}: options must be an object, got ${describe(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!(allowed as readonly string[]).includes(key)) {
      const hint = suggest(key, allowed);
      throw new InvalidArgumentError(
        `${fn}: unknown option ${JSON.stringify(key)}` + (hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ` (known options: ${allowed.join(', ')})`),
      );
    }
  }
  return options;
}

/** An integer in [min, max]; `what` names the argument in the message. */
export function checkInt(fn: string, what: string, value: unknown, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new InvalidArgumentError(`${fn}: ${what} must be an integer, got ${describe(value)}`);
  }
  if (value < min || value > max) {
    throw new InvalidArgumentError(`${fn}: ${what} must be in [${min}, ${max}], got ${value}`);
  }
  return value;
}

/** A finite number in [min, max]. */
export function checkNumber(fn: string, what: string, value: unknown, min = -Infinity, max = Infinity): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new InvalidArgumentError(`${fn}: ${what} must be a finite number, got ${describe(value)}`);
  }
  if (value < min || value > max) {
    throw new InvalidArgumentError(`${fn}: ${what} must be in [${min}, ${max}], got ${value}`);
  }
  return value;
}

/** One of a fixed set of strings. */
export function checkEnum<T extends string>(fn: string, what: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    const hint = typeof value === 'string' ? suggest(value, allowed) : undefined;
    throw new InvalidArgumentError(
      `${fn}: ${what} must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}, got ${describe(value)}` +
        (hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ''),
    );
  }
  return value as T;
}

/** `value` as an optional AbortSignal. @throws {InvalidArgumentError} naming `what` where it is something else. */
export function checkSignal(fn: string, what: string, value: unknown): AbortSignal | undefined {
  if (value !== undefined && !(value instanceof AbortSignal)) throw new InvalidArgumentError(`${fn}: ${what} must be an AbortSignal, got ${describe(value)}`);
  return value;
}

export function checkBoolean(fn: string, what: string, value: unknown): boolean {
  if (typeof value !== 'boolean') {
    throw new InvalidArgumentError(`${fn}: ${what} must be a boolean, got ${describe(value)}`);
  }
  return value;
}

/** Elements from which the native scan (about 10 GB/s, against 2 here) is worth its call. */
const NATIVE_SCAN_FROM = 16_384;
let nativeScan: ((a: Float32Array | Float64Array) => number) | null | undefined;

/** The addon's scan, or null where the addon cannot be loaded (the loop below does the work then). */
function loadNativeScan(): ((a: Float32Array | Float64Array) => number) | null {
  const addon = optionalAddon();
  return addon ? addon.firstNonFinite.bind(addon) : null;
}

/** Arrays a scan off the JS thread has just found finite, for the construction that follows it at once (data/off-thread-checks.ts). */
let finiteArrays: ReadonlySet<ArrayBufferView> | undefined;

/** Run `build` with `arrays` taken as scanned finite (they must not have changed since the scan). @internal */
export function withFiniteArrays<T>(arrays: readonly ArrayBufferView[], build: () => T): T {
  finiteArrays = new Set(arrays);
  try {
    return build();
  } finally {
    finiteArrays = undefined;
  }
}

/** Index of the first non-finite element, or -1. */
export function firstNonFinite(a: Float32Array | Float64Array): number {
  if (finiteArrays?.has(a)) return -1;
  if (a.length >= NATIVE_SCAN_FROM) {
    nativeScan ??= loadNativeScan();
    if (nativeScan) return nativeScan(a);
  }
  for (let i = 0; i < a.length; i++) {
    const v = a[i]!;
    // v - v is NaN exactly for NaN and +-Infinity, and this is faster than Number.isFinite here.
    if (v - v !== 0) return i;
  }
  return -1;
}

/** Whether two typed arrays share any byte of memory. */
export function overlaps(a: ArrayBufferView, b: ArrayBufferView): boolean {
  if (a.buffer !== b.buffer || a.byteLength === 0 || b.byteLength === 0) return false;
  return a.byteOffset < b.byteOffset + b.byteLength && b.byteOffset < a.byteOffset + a.byteLength;
}
