// Hostile option objects for the fuzz suites: known option names (from each target's list),
// near-miss misspellings and unrelated keys, holding wrong types, negative, huge and non-finite
// numbers, wrongly shaped arrays; or something that is not an object at all.

import fc from 'fast-check';
import { expect } from 'vitest';
import { DenseMatrix } from '../../src/data/dense.js';

export const VALUES: unknown[] = [
  undefined,
  null,
  true,
  false,
  0,
  1,
  2,
  3,
  16,
  -1,
  0.5,
  1.5,
  -0.0,
  NaN,
  Infinity,
  -Infinity,
  2 ** 31,
  2 ** 53,
  1e308,
  '',
  'f32',
  'f64',
  'sum',
  'error',
  'top-down',
  'bottom-up',
  'auto',
  'typescript',
  'wasm',
  'symmetric',
  'x',
  '3',
  [],
  [0, 1],
  [5, 3],
  [0, 1e9],
  [-1, 2],
  [0, 40],
  {},
  { k: 2 },
  { k: -1 },
  () => 0,
  3n,
  Symbol('s'),
  new Int32Array(3),
  new Float64Array(120),
  DenseMatrix.zeros(40, 3, 'f64'),
  DenseMatrix.zeros(40, 1, 'f64'),
  AbortSignal.abort(),
];

/** Misspell a known name (a swap, a dropped or a doubled letter) or use an unrelated one. */
const misspelt = (names: readonly string[]) =>
  fc.tuple(fc.constantFrom(...names), fc.nat(), fc.constantFrom('swap', 'drop', 'double', 'upper', 'other')).map(([n, at, how]) => {
    const i = at % n.length;
    if (how === 'swap' && n.length > 1) return n.slice(0, i) + (n[i + 1] ?? '') + n[i] + n.slice(i + 2);
    if (how === 'drop') return n.slice(0, i) + n.slice(i + 1);
    if (how === 'double') return n.slice(0, i) + n[i] + n.slice(i);
    if (how === 'upper') return n.toUpperCase();
    return ['bogus', '__proto__', 'constructor', 'toString', 'hasOwnProperty'][at % 5]!;
  });

export function optionsFor(names: readonly string[]) {
  return fc.record({
    known: fc.dictionary(fc.constantFrom(...names), fc.constantFrom(...VALUES), { maxKeys: 4 }),
    unknown: fc.option(fc.tuple(misspelt(names), fc.constantFrom(...VALUES)), { nil: undefined }),
    notObject: fc.constantFrom(false, false, false, false, true),
    raw: fc.constantFrom(...VALUES),
  });
}

export function build(
  names: readonly string[],
  c: { known: Record<string, unknown>; unknown: [string, unknown] | undefined; notObject: boolean; raw: unknown },
): { options: unknown; unknownName: string | undefined } {
  // Anything at all where the options object belongs (a function, a string, null, an array...).
  if (c.notObject) return { options: c.raw, unknownName: undefined };
  const options: Record<string, unknown> = { ...c.known };
  let unknownName: string | undefined;
  if (c.unknown && !names.includes(c.unknown[0])) {
    unknownName = c.unknown[0];
    Object.defineProperty(options, unknownName, { value: c.unknown[1], enumerable: true, configurable: true, writable: true });
  }
  return { options, unknownName };
}

export function checkRefusal(fn: string, unknownName: string | undefined, got: { ok: boolean; error?: Error }): void {
  if (unknownName === undefined) return;
  expect(got.ok, `${fn} accepted the unknown option ${JSON.stringify(unknownName)}`).toBe(false);
  expect(got.error!.message).toMatch(/unknown (option|field)|caller must be/);
}
