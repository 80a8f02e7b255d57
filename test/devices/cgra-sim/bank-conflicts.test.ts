// Bank conflicts come from the real addresses: an SpMV whose X gathers land in the bank of the
// same iteration's colIdx load takes longer than one whose accesses spread over the banks.

import { describe, expect, it } from 'vitest';
import { CsrMatrix } from '../../../src/data/csr.js';
import { DenseMatrix } from '../../../src/data/dense.js';
import { cgraDevice } from './helpers.js';

// 4 nonzeros per row, A value f32; nonzero p gathers x[col] with col mod 4 = (p + shift) mod 4.
// In the default layout X starts in bank 0, colIdx[p] sits in bank (1 + p) mod 4 and A's value in
// bank (2 + p) mod 4, so shift 1 collides with colIdx and shift 3 with nothing.
function shifted(shift: number): CsrMatrix {
  const rows = 500,
    perRow = 4;
  const rowPtr = Int32Array.from({ length: rows + 1 }, (_, r) => r * perRow);
  const colIdx = new Int32Array(rows * perRow);
  for (let p = 0; p < colIdx.length; p++) colIdx[p] = 4 * (Math.floor(p / perRow) % 256) + ((p + shift) % 4);
  return new CsrMatrix({ rows, cols: 1024, rowPtr, colIdx, values: new Float32Array(colIdx.length).fill(0.5) });
}

describe('cgra-sim bank conflicts', () => {
  it('a colliding access pattern stalls, a spread one does not', async () => {
    const device = cgraDevice();
    const x = new DenseMatrix(1024, 1, new Float32Array(1024).fill(1));
    const colliding = await device.run({ kind: 'spmv' }, { a: shifted(1), x });
    const spread = await device.run({ kind: 'spmv' }, { a: shifted(3), x });
    expect(colliding.counters['ii']).toBe(1);
    expect(spread.counters['bankStallCycles']).toBe(0);
    expect(colliding.counters['bankStallCycles']).toBeGreaterThanOrEqual(2000);
    expect(colliding.counters['cycles']).toBeGreaterThan(spread.counters['cycles']! + 1500);
    expect(colliding.counters['computeCycles']).toBe(spread.counters['computeCycles']);
  });
});
