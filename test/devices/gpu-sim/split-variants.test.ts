// Row-split pays for its longest row (one warp walks it alone); nnz-split does not, but costs a
// second launch for the carries. The model must pick by the actual row lengths.

import { expect, it } from 'vitest';
import { randomDense } from '../../support/random.js';
import { gpuSim, oneHugeRow, uniformMatrix } from './helpers.js';

const gpu = gpuSim();
const x = randomDense(4096, 8, 'f32', 1);

it('one huge row: nnz-split is chosen and row-split is several times slower', async () => {
  const r = await gpu.run({ kind: 'spmm' }, { a: oneHugeRow(4096, 4096, 8, 1), x });
  expect(r.counters['variant']).toBe(1);
  expect(r.counters['rowSplitSeconds']!).toBeGreaterThan(3 * r.counters['nnzSplitSeconds']!);
  expect(r.seconds).toBe(r.counters['nnzSplitSeconds']);
});

it('uniform rows: row-split is chosen, or nnz-split wins by a hair at most', async () => {
  const r = await gpu.run({ kind: 'spmm' }, { a: uniformMatrix(4096, 4096, 8, 1), x });
  expect(r.counters['nnzSplitSeconds']!).toBeGreaterThan(0.9 * r.counters['rowSplitSeconds']!);
  expect(r.counters['variant']).toBe(0);
  expect(r.counters['kernels']).toBe(1);
});
