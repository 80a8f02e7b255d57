// cgra-sim computes the true SpMM/SpMV result: equal to the TypeScript reference within the
// summation bound, for FP32 and FP64, pattern and valued matrices, any k and any row range.

import { describe, expect, it } from 'vitest';
import type { DenseMatrix } from '../../../src/data/dense.js';
import { firstSpmmMismatch } from '../../support/compare.js';
import { randomDense, skewedMatrix } from '../../support/random.js';
import { cgraDevice } from './helpers.js';

describe('cgra-sim spmm and spmv', () => {
  const device = cgraDevice();
  for (const precision of ['f32', 'f64'] as const) {
    for (const values of ['pattern', 'f32', 'f64'] as const) {
      for (const k of [1, 3, 16, 40]) {
        it(`${precision} x, ${values} A, k = ${k}: equals the reference`, async () => {
          const a = skewedMatrix(300, 500, 4000, k, values);
          const x = randomDense(500, k, precision, 11);
          const r = await device.run({ kind: 'spmm' }, { a, x });
          const y = r.output as DenseMatrix;
          expect(y.precision).toBe(precision);
          expect(firstSpmmMismatch(a, x.data, k, y.data)).toBe(-1);
          expect(r.counters['cycles']).toBeGreaterThan(0);
          expect(r.seconds).toBeCloseTo(r.counters['cycles']! / 1e9, 15);
          expect(r.source).toBe('simulated');
        });
      }
    }
  }

  it('a row range computes exactly those rows', async () => {
    const a = skewedMatrix(400, 300, 5000, 3, 'f32');
    const x = randomDense(300, 8, 'f32', 4);
    const r = await device.run({ kind: 'spmm' }, { a, x }, [57, 311]);
    expect((r.output as DenseMatrix).rows).toBe(254);
    expect(firstSpmmMismatch(a, x.data, 8, (r.output as DenseMatrix).data, 57, 311)).toBe(-1);
  });

  it('spmv (k = 1) equals the reference', async () => {
    const a = skewedMatrix(1000, 1000, 20_000, 9, 'f64');
    const x = randomDense(1000, 1, 'f64', 2);
    const r = await device.run({ kind: 'spmv' }, { a, x });
    expect(firstSpmmMismatch(a, x.data, 1, (r.output as DenseMatrix).data)).toBe(-1);
    expect(r.counters['ii']).toBeGreaterThanOrEqual(1);
  });
});
