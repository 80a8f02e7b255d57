// The native dense bindings check every array themselves: a call that skipped the TypeScript
// checks (lengths, element types, overlapping outputs, bad row pointers) is a RangeError with
// ERR_INVALID_ARGUMENT naming the function, never a read or write out of bounds.

import { describe, expect, it } from 'vitest';
import { nativeAddon } from '../../src/native/addon.js';

async function refused(p: () => Promise<unknown>, message: RegExp): Promise<void> {
  let err: unknown;
  try {
    await p();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(RangeError);
  expect((err as { code?: string }).code).toBe('ERR_INVALID_ARGUMENT');
  expect((err as Error).message).toMatch(message);
}

describe('native dense bindings', () => {
  const a = nativeAddon();
  const f32 = (n: number): Float32Array => new Float32Array(n);

  it('gemm: lengths, types, ranges and overlap', async () => {
    await refused(() => a.gemm(4, 3, 2, f32(11), f32(6), f32(8), 0, 4), /^gemm: x has length 11, expected 12/);
    await refused(() => a.gemm(4, 3, 2, f32(12), new Float64Array(6), f32(8), 0, 4), /^gemm: w must have the element type/);
    await refused(() => a.gemm(4, 3, 2, f32(12), f32(6), f32(8), 0, 5), /^gemm: rowEnd must be an integer in \[0, 4\]/);
    await refused(() => a.gemm(4, 3, 2, f32(12), f32(6), f32(4), 0, 4), /^gemm: y has length 4, expected 8/);
    const x = f32(12);
    await refused(() => a.gemm(4, 3, 2, x, f32(6), x.subarray(0, 8), 0, 4), /^gemm: y must not overlap an input/);
    await refused(() => a.gemm(-1, 3, 2, f32(12), f32(6), f32(8), 0, 4), /^gemm: m must be an integer/);
  });

  it('maps and reductions: lengths, op codes and overlap', async () => {
    await refused(() => a.relu(2, 3, f32(6), f32(5), 0, 2), /^relu: out has length 5, expected 6/);
    await refused(() => a.affine(2, 3, f32(6), 'x' as never, 0, f32(6), 0, 2), /^affine: scale must be a number/);
    await refused(() => a.add(2, 3, f32(6), f32(5), f32(6), 0, 2), /^add: y has length 5, expected 6/);
    const x = f32(6);
    await refused(() => a.relu(2, 3, x, x, 0, 2), /^relu: out must not overlap an input/);
    await refused(() => a.reducePartial(2, 3, f32(6), 3 as never, new Float64Array(3), 0, 2), /^reducePartial: op must be an integer in \[0, 2\]/);
    await refused(() => a.reducePartial(2, 3, f32(6), 0, new Float64Array(2), 0, 2), /^reducePartial: acc has length 2, expected cols = 3/);
  });

  it('sddmm: row pointers, column indices and the output length', async () => {
    const rowPtr = new Int32Array([0, 1, 2]);
    await refused(() => a.sddmm(2, 2, rowPtr, new Int32Array([0, 5]), null, f32(2), f32(2), 1, f32(2), 0, 2), /^sddmm: colIdx\[1\] = 5 is outside \[0, 2\)/);
    await refused(() => a.sddmm(2, 2, new Int32Array([0, 3, 2]), new Int32Array([0, 1]), null, f32(2), f32(2), 1, f32(2), 0, 2), /^sddmm: rowPtr\[/);
    await refused(
      () => a.sddmm(2, 2, rowPtr, new Int32Array([0, 1]), null, f32(2), f32(2), 1, f32(1), 0, 2),
      /^sddmm: out has length 1, expected the range's 2 entries/,
    );
    await refused(
      () => a.sddmm(2, 2, rowPtr, new Int32Array([0, 1]), new Float64Array(2), f32(2), f32(2), 1, f32(2), 0, 2),
      /^sddmm: values must have the element type/,
    );
  });
});
