// A server's uploads are checked with the long scans (CSR structure, finiteness) on a libuv worker
// (src/data/off-thread-checks.ts): the matrices and the errors are the constructors' own, the
// event loop turns while the scans run, and the scans' verdict applies to the scanned arrays only.

import { expect, it } from 'vitest';
import { CsrMatrix } from '../../src/data/csr.js';
import { DenseMatrix } from '../../src/data/dense.js';
import { csrOffThread, denseOffThread } from '../../src/data/off-thread-checks.js';

const ROWS = 200_000;
const PER_ROW = 8; // 1.6 M entries: well above the native check's threshold

function csr(): { rows: number; cols: number; rowPtr: Int32Array; colIdx: Int32Array; values: Float32Array } {
  const colIdx = new Int32Array(ROWS * PER_ROW);
  for (let r = 0; r < ROWS; r++) for (let k = 0; k < PER_ROW; k++) colIdx[r * PER_ROW + k] = (r * 7 + k * 24_989) % ROWS;
  for (let r = 0; r < ROWS; r++) colIdx.subarray(r * PER_ROW, (r + 1) * PER_ROW).sort();
  const rowPtr = new Int32Array(ROWS + 1).map((_, r) => r * PER_ROW);
  const values = new Float32Array(colIdx.length).map((_, i) => (i % 13) - 6);
  return { rows: ROWS, cols: ROWS, rowPtr, colIdx, values };
}

/** What `make` settles with (or throws), and how many turns of the event loop ran before it settled. */
async function turnsWhile<T>(make: () => Promise<T>): Promise<{ value?: T; error?: unknown; turns: number }> {
  let turns = 0;
  let done = false;
  const tick = (): void => {
    if (done) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  try {
    return { value: await make(), turns };
  } catch (error) {
    return { error, turns };
  } finally {
    done = true;
  }
}

it('builds the matrix the constructor builds, while the event loop keeps turning', async () => {
  const init = csr();
  const { value, turns } = await turnsWhile(() => csrOffThread(init));
  expect(value).toBeInstanceOf(CsrMatrix);
  expect(value!.sortedColumns).toBe(new CsrMatrix(init).sortedColumns);
  expect(value!.nnz).toBe(ROWS * PER_ROW);
  expect(turns).toBeGreaterThan(0);
  const data = new Float64Array(1 << 20).map((_, i) => i / 7);
  const dense = await turnsWhile(() => denseOffThread(1 << 14, 64, data));
  expect(dense.value).toBeInstanceOf(DenseMatrix);
  expect(dense.turns).toBeGreaterThan(0);
});

it("refuses a faulty input with the constructor's own error, naming the first fault", async () => {
  const outside = csr();
  outside.colIdx[123_457] = ROWS + 5;
  const sync = (): CsrMatrix => new CsrMatrix(outside);
  expect(sync).toThrow(/colIdx\[123457\] = 200005 in row 15432 is outside \[0, 200000\)/);
  await expect(csrOffThread(outside)).rejects.toThrow(/colIdx\[123457\] = 200005 in row 15432 is outside \[0, 200000\)/);
  const nan = csr();
  nan.values[900_001] = Number.NaN;
  await expect(csrOffThread(nan)).rejects.toThrow(/CsrMatrix: values\[900001\] = NaN is not finite/);
  const data = new Float32Array(1 << 20);
  data[777_777] = Number.POSITIVE_INFINITY;
  await expect(denseOffThread(1 << 14, 64, data)).rejects.toThrow(/DenseMatrix: element \(12152, 49\) = Infinity/);
  const short = csr();
  await expect(csrOffThread({ ...short, rowPtr: short.rowPtr.subarray(1) })).rejects.toThrow(/rowPtr/);
});

it('lends its verdict to the scanned arrays only, and only while it builds their matrix', async () => {
  const init = csr();
  await csrOffThread(init);
  // The same arrays made faulty since, and other faulty arrays: checked in full as ever.
  init.values[5] = Number.NaN;
  expect(() => new CsrMatrix(init)).toThrow(/values\[5\] = NaN is not finite/);
  const other = csr();
  other.colIdx[10] = -1;
  expect(() => new CsrMatrix(other)).toThrow(/colIdx\[10\] = -1/);
});
