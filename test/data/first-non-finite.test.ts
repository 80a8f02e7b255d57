// The scan every matrix passes: the native one (large arrays) and the TypeScript loop (small ones)
// find the same first NaN or infinity, at block edges and in views that start inside a buffer,
// and pass every finite value (the largest, subnormals, negative zero).

import { expect, it } from 'vitest';
import { nativeAddon } from '../../src/native/addon.js';
import { firstNonFinite } from '../../src/validate.js';

/** The plain reference: Number.isFinite on every element. */
function reference(a: Float32Array | Float64Array): number {
  return a.findIndex((v) => !Number.isFinite(v));
}

const BAD = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];

it.each([Float32Array, Float64Array])('%o: the native scan and the loop agree with the reference', (Ctor) => {
  const n = 3 * 4096 + 17;
  const finite = [0, -0, 1, -1.5, Ctor === Float32Array ? 3.4028234663852886e38 : Number.MAX_VALUE, Ctor === Float32Array ? 1e-45 : 5e-324];
  const base = new Ctor(n);
  for (let i = 0; i < n; i++) base[i] = finite[i % finite.length]!;
  expect(nativeAddon().firstNonFinite(base)).toBe(-1);
  expect(firstNonFinite(base)).toBe(-1);
  for (const at of [0, 1, 4095, 4096, 4097, 8191, n - 1]) {
    for (const bad of BAD) {
      const a = base.slice();
      a[at] = bad;
      if (at + 5000 < n) a[at + 5000] = bad; // a later one does not hide the first
      expect(nativeAddon().firstNonFinite(a)).toBe(reference(a));
      expect(firstNonFinite(a)).toBe(reference(a));
      // A view that starts inside the buffer counts from its own start.
      const view = a.subarray(3);
      expect(nativeAddon().firstNonFinite(view)).toBe(reference(view));
      expect(firstNonFinite(view)).toBe(reference(view));
    }
  }
  expect(nativeAddon().firstNonFinite(new Ctor(0))).toBe(-1);
});

it('refuses arrays that are not floating point, naming itself', () => {
  expect(() => nativeAddon().firstNonFinite(new Int32Array(4) as unknown as Float32Array)).toThrow(/firstNonFinite: array has the wrong element type/);
});
