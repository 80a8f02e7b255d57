// The property-based hostile-input harness: every property feeds generated input to one entry
// point and accepts exactly two outcomes, a correct result or a typed dype error naming the
// function. Anything else (a generic TypeError or RangeError from internals, a crash, a case that
// runs past the hang limit) fails the property. Case counts scale with DYPE_FUZZ_SCALE (1 in
// `npm test`, more in `npm run fuzz`), and with DYPE_FUZZ_REPORT set each property appends its
// tally (cases, results, refusals, failures, hangs, slowest case) to that file as a JSON line.

import { appendFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, expect, it } from 'vitest';
import { DypeError } from '../../src/errors.js';
import { setMemoryBudget } from '../../src/limits.js';

const SCALE = Number(process.env['DYPE_FUZZ_SCALE'] ?? '1');
const SEED = process.env['DYPE_FUZZ_SEED'] === undefined ? undefined : Number(process.env['DYPE_FUZZ_SEED']);

// Fuzz inputs are tiny; an absurd size in them must be refused by the budget, whatever the
// machine's memory (the default budget is half of it), so every machine fuzzes the same way.
setMemoryBudget(2 ** 30);

/** A single case slower than this counts as a hang (the input is small; nothing should take long). */
export const HANG_MS = Number(process.env['DYPE_FUZZ_HANG_MS'] ?? '5000');

/** Cases for a property whose `npm test` size is `base`. */
export function runs(base: number): number {
  return Math.max(1, Math.round(base * (Number.isFinite(SCALE) && SCALE > 0 ? SCALE : 1)));
}

interface Tally {
  property: string;
  cases: number;
  results: number;
  refusals: number;
  failures: number;
  hangs: number;
  ms: number;
  slowestMs: number;
}

const tallies: Tally[] = [];

afterAll(() => {
  const report = process.env['DYPE_FUZZ_REPORT'];
  if (!report) return;
  appendFileSync(report, tallies.map((t) => JSON.stringify(t) + '\n').join(''));
});

/** What one case came to: a result the property checked, or a typed refusal. */
export type Outcome = 'result' | 'refused';

class Hang extends Error {}

/**
 * Expect `e` to be a dype error (the typed family, not a TypeError or RangeError from inside)
 * whose message starts with `fn` (a name, or one of several names).
 */
export function expectTypedError(e: unknown, fn: string | readonly string[]): void {
  if (e instanceof Hang) throw e;
  const names = typeof fn === 'string' ? [fn] : fn;
  if (!(e instanceof DypeError)) {
    throw new Error(`expected a DypeError from ${names.join('/')}, got ${e instanceof Error ? `${e.constructor.name}: ${e.message}` : String(e)}`, {
      cause: e,
    });
  }
  if (!names.some((n) => e.message.startsWith(`${n}:`) || e.message.startsWith(`${n} `))) {
    throw new Error(`expected a message starting with ${names.join(' or ')}, got ${e.constructor.name}: ${e.message}`, { cause: e });
  }
}

/**
 * The raw addon's own errors are plain JS errors with a dype `code` (src/kernels/native-call.ts
 * turns them into typed errors); expect such a code and the function's name first.
 */
export function expectCodedError(e: unknown, fn: string): void {
  if (e instanceof Hang) throw e;
  const code = (e as { code?: unknown } | null)?.code;
  const message = e instanceof Error ? e.message : String(e);
  if (typeof code !== 'string' || !code.startsWith('ERR_')) {
    throw new Error(`expected a coded error from ${fn}, got ${e instanceof Error ? e.constructor.name : typeof e}: ${message}`, { cause: e });
  }
  if (!message.startsWith(`${fn}:`)) throw new Error(`expected a message starting with ${fn}:, got ${message}`, { cause: e });
}

/** Run `body`; a throw must be a typed error from `fn`. Returns the value or `undefined` when refused. */
export function attempt<T>(fn: string | readonly string[], body: () => T): { ok: true; value: T } | { ok: false; error: DypeError } {
  try {
    return { ok: true, value: body() };
  } catch (e) {
    expectTypedError(e, fn);
    return { ok: false, error: e as DypeError };
  }
}

/** Async form of attempt. */
export async function attemptAsync<T>(
  fn: string | readonly string[],
  body: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: DypeError }> {
  try {
    return { ok: true, value: await body() };
  } catch (e) {
    expectTypedError(e, fn);
    return { ok: false, error: e as DypeError };
  }
}

function tally(property: string): Tally {
  const t: Tally = { property, cases: 0, results: 0, refusals: 0, failures: 0, hangs: 0, ms: 0, slowestMs: 0 };
  tallies.push(t);
  return t;
}

function record(t: Tally, outcome: Outcome, ms: number): void {
  t.cases++;
  if (outcome === 'result') t.results++;
  else t.refusals++;
  t.slowestMs = Math.max(t.slowestMs, ms);
}

/**
 * A property as a vitest test whose cases are tallied: a failure counts against it, its time is
 * kept, and it must have run at least its share of cases.
 */
function tallied(property: string, base: number, body: (t: Tally) => unknown): void {
  it(property, async () => {
    const t = tally(property);
    const started = performance.now();
    try {
      await body(t);
    } catch (e) {
      t.failures++;
      throw e;
    } finally {
      t.ms = performance.now() - started;
    }
    expect(t.cases).toBeGreaterThanOrEqual(runs(base));
  });
}

/**
 * A synchronous property as a vitest test. A synchronous hang cannot be interrupted in-process:
 * a case over HANG_MS is reported as a hang after it returns, and a case that never returns is
 * caught by the test timeout here and by the wall-clock limit of `npm run fuzz`.
 */
export function fuzz<T>(property: string, arb: fc.Arbitrary<T>, base: number, check: (value: T) => Outcome): void {
  tallied(property, base, (t) => {
    fc.assert(
      fc.property(arb, (value) => {
        const t0 = performance.now();
        const outcome = check(value);
        const ms = performance.now() - t0;
        record(t, outcome, ms);
        if (ms > HANG_MS) {
          t.hangs++;
          throw new Hang(`${property}: one case took ${ms.toFixed(0)} ms (hang limit ${HANG_MS} ms)`);
        }
      }),
      { numRuns: runs(base), ...(SEED === undefined ? {} : { seed: SEED }) },
    );
  });
}

/** An asynchronous property: each case races a watchdog of HANG_MS, so a hung native call fails the property. */
export function fuzzAsync<T>(property: string, arb: fc.Arbitrary<T>, base: number, check: (value: T) => Promise<Outcome>): void {
  tallied(property, base, async (t) => {
    await fc.assert(
      fc.asyncProperty(arb, async (value) => {
        const t0 = performance.now();
        let timer: NodeJS.Timeout | undefined;
        const watchdog = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Hang(`${property}: a case ran past ${HANG_MS} ms`)), HANG_MS);
        });
        try {
          const outcome = await Promise.race([check(value), watchdog]);
          record(t, outcome, performance.now() - t0);
        } catch (e) {
          if (e instanceof Hang) t.hangs++;
          throw e;
        } finally {
          clearTimeout(timer);
        }
      }),
      { numRuns: runs(base), ...(SEED === undefined ? {} : { seed: SEED }) },
    );
  });
}

/** Hostile integers: negatives, boundaries of 32-bit indices, unsafe and non-integral numbers. */
export const hostileInt = fc.constantFrom(-1, -2, -(2 ** 31), 2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 53, -(2 ** 53), 1.5, -0.5, NaN, Infinity, -Infinity, 1e308);

/** Hostile non-numbers where a number is expected. */
export const notANumber = fc.constantFrom<unknown>('3', null, undefined, true, {}, [], 3n, () => 3);

/** Non-finite floats. */
export const nonFinite = fc.constantFrom(NaN, Infinity, -Infinity);
