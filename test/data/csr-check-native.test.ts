// Large CSR inputs are checked by the addon first (native/src/input_scans.cc): it must accept
// exactly what the TypeScript walk accepts, find the same sortedness, and leave a faulty input to
// the walk so the error names the same first fault as for a small one.

import { expect, it } from 'vitest';
import { CsrMatrix } from '../../src/data/csr.js';
import { nativeAddon } from '../../src/native/addon.js';

const ROWS = 5000;
const PER_ROW = 4; // 20,000 entries: above the native check's threshold

function arrays(wide = false): { rowPtr: Int32Array | BigInt64Array; colIdx: Int32Array } {
  const colIdx = new Int32Array(ROWS * PER_ROW);
  for (let r = 0; r < ROWS; r++) for (let k = 0; k < PER_ROW; k++) colIdx[r * PER_ROW + k] = (r + k * 997) % ROWS;
  for (let r = 0; r < ROWS; r++) colIdx.subarray(r * PER_ROW, (r + 1) * PER_ROW).sort();
  const rowPtr = wide ? new BigInt64Array(ROWS + 1) : new Int32Array(ROWS + 1);
  for (let r = 0; r <= ROWS; r++) rowPtr[r] = wide ? BigInt(r * PER_ROW) : r * PER_ROW;
  return { rowPtr, colIdx };
}

it.each([false, true])('well-formed inputs pass with their sortedness (64-bit row pointers: %s)', (wide) => {
  const a = arrays(wide);
  expect(nativeAddon().csrCheck(ROWS, ROWS, a.rowPtr, a.colIdx)).toBe(1);
  expect(new CsrMatrix({ rows: ROWS, cols: ROWS, ...a }).sortedColumns).toBe(true);
  const swapped = arrays(wide);
  [swapped.colIdx[4001], swapped.colIdx[4002]] = [swapped.colIdx[4002]!, swapped.colIdx[4001]!];
  expect(nativeAddon().csrCheck(ROWS, ROWS, swapped.rowPtr, swapped.colIdx)).toBe(0);
  expect(new CsrMatrix({ rows: ROWS, cols: ROWS, ...swapped }).sortedColumns).toBe(false);
  const duplicate = arrays(wide);
  duplicate.colIdx[4002] = duplicate.colIdx[4001]!;
  expect(nativeAddon().csrCheck(ROWS, ROWS, duplicate.rowPtr, duplicate.colIdx)).toBe(0);
});

it.each([
  ['a column past cols', (a: ReturnType<typeof arrays>) => void (a.colIdx[12345] = ROWS), /colIdx\[12345\] = 5000 in row 3086 is outside \[0, 5000\)/],
  ['a negative column', (a: ReturnType<typeof arrays>) => void (a.colIdx[19999] = -1), /colIdx\[19999\] = -1 in row 4999 is outside \[0, 5000\)/],
  ['a decreasing row pointer', (a: ReturnType<typeof arrays>) => void (a.rowPtr[100] = 3), /rowPtr\[100\] = 3 after rowPtr\[99\] = 396/],
  ['a first row pointer not 0', (a: ReturnType<typeof arrays>) => void (a.rowPtr[0] = 1), /rowPtr\[0\] must be 0, got 1/],
  [
    'a last row pointer short of nnz',
    (a: ReturnType<typeof arrays>) => void (a.rowPtr[ROWS] = ROWS * PER_ROW - 1),
    /rowPtr\[rows\] = 19999 must equal colIdx.length = 20000/,
  ],
])('%s is refused natively, and named as for a small input', (_what, spoil, message) => {
  const a = arrays();
  spoil(a);
  expect(nativeAddon().csrCheck(ROWS, ROWS, a.rowPtr, a.colIdx)).toBe(-1);
  expect(() => new CsrMatrix({ rows: ROWS, cols: ROWS, ...a })).toThrow(message);
});

it('refuses row pointers of the wrong length, naming the call', () => {
  const a = arrays();
  expect(() => nativeAddon().csrCheck(ROWS + 1, ROWS, a.rowPtr, a.colIdx)).toThrow(/csrCheck: rowPtr must have rows \+ 1 entries/);
});
