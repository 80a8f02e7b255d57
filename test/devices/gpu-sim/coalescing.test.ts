// SpMV gathers x[col]: 32 lanes reading neighbouring columns share sectors, scattered ones do not.
// Same matrix shape and nonzero count, only the column indices differ.

import { expect, it } from 'vitest';
import { lcg, randomDense } from '../../support/random.js';
import { fromRows, gpuSim } from './helpers.js';

const rows = 4096;
const perRow = 32;
const cols = 1 << 20;

it('scattered column indices cost more L2 sectors, DRAM bytes and time than contiguous ones', async () => {
  const gpu = gpuSim();
  const rnd = lcg(3);
  const contiguous = fromRows(
    cols,
    Array.from({ length: rows }, (_, r) => Array.from({ length: perRow }, (_, j) => r * perRow + j)),
  );
  const scattered = fromRows(
    cols,
    Array.from({ length: rows }, () => {
      const s = new Set<number>();
      while (s.size < perRow) s.add(Math.floor(rnd() * cols));
      return [...s].sort((p, q) => p - q);
    }),
  );
  const x = randomDense(cols, 1, 'f32', 2);
  const c = await gpu.run({ kind: 'spmv' }, { a: contiguous, x });
  const s = await gpu.run({ kind: 'spmv' }, { a: scattered, x });
  expect(s.counters['l2Sectors']!).toBeGreaterThan(2 * c.counters['l2Sectors']!);
  expect(s.counters['dramBytes']!).toBeGreaterThan(1.5 * c.counters['dramBytes']!);
  expect(s.seconds).toBeGreaterThan(c.seconds);
});
