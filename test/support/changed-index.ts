// A simulator that reuses what it learnt of a matrix must still check the matrix it is given: a
// product after the first, with one column index changed under dype's feet, is a typed error
// naming it, never a read out of bounds. Shared by the gpu-sim and cgra-sim reuse tests.

import { expect } from 'vitest';
import type { Device } from '../../src/devices/device.js';
import { randomDense, skewedMatrix } from './random.js';

export async function expectChangedIndexRefused(device: Device): Promise<void> {
  const a = skewedMatrix(500, 500, 5000, 7, 'f32');
  const x = randomDense(500, 8, 'f32', 8);
  await device.run({ kind: 'spmm' }, { a, x });
  const saved = a.colIdx[100]!;
  a.colIdx[100] = 9999;
  try {
    await expect(device.run({ kind: 'spmm' }, { a, x })).rejects.toThrow(/colIdx\[100\] = 9999/);
  } finally {
    a.colIdx[100] = saved;
  }
}
