// Found by the native fuzz: cgraSpmm handed back NaN when x held a NaN written after validation,
// where the CPU kernel refuses. The simulator now refuses a result that is not finite, naming the
// element of x (or the row, for an overflow), like the CPU kernel.

import { expect, it } from 'vitest';
import { cgraSimBackend } from '../../../src/devices/backends/cgra-sim.js';
import { loadProfile, specValues } from '../../../src/devices/spec.js';
import { nativeAddon } from '../../../src/native/addon.js';

const params = specValues(loadProfile('test', 'cgra-sim', 'hycube-4x4', cgraSimBackend.params));
const call = (...args: unknown[]) => (nativeAddon() as unknown as { cgraSpmm: (...a: unknown[]) => Promise<unknown> }).cgraSpmm(...args);
const rowPtr = Int32Array.of(0, 1, 2);
const colIdx = Int32Array.of(1, 0);

it('refuses a NaN in x that reaches the result, naming the element', async () => {
  const x = Float64Array.of(1, 2, NaN, 4); // 2 x 2: element (1, 0) is NaN
  const e = await call(2, 2, rowPtr, colIdx, Float64Array.of(0, 1), x, 2, new Float64Array(4), 0, 2, params, false).catch((err: unknown) => err);
  expect((e as { code?: string }).code).toBe('ERR_INVALID_ARGUMENT');
  expect((e as Error).message).toBe('cgraSpmm: x element (1, 0) = NaN is not finite');
});

it('refuses an overflowing result, naming the row', async () => {
  const x = new Float32Array(4).fill(3e38);
  const e = await call(2, 2, rowPtr, colIdx, Float32Array.of(10, 1), x, 2, new Float32Array(4), 0, 2, params, true).catch((err: unknown) => err);
  expect((e as Error).message).toMatch(/^cgraSpmm: the result is not finite in row 0 \(overflow/);
});

it('a NaN in a column no entry reads changes nothing', async () => {
  const y = new Float64Array(2);
  await call(2, 2, rowPtr, Int32Array.of(0, 0), null, Float64Array.of(5, NaN), 1, y, 0, 2, params, true);
  expect(Array.from(y)).toEqual([5, 5]);
});
