// A gpu-sim device replays an SpMM's structure once per matrix, rows, width, precision and
// kind: a later product of the same matrix computes only its true result and reports the
// figures of the first (they do not depend on X's values). Another range, width or matrix is
// replayed afresh.

import { expect, it } from 'vitest';
import { spmmReference } from '../../../src/kernels/reference.js';
import { expectChangedIndexRefused } from '../../support/changed-index.js';
import { randomDense, skewedMatrix } from '../../support/random.js';
import { gpuSim } from './helpers.js';

const modelled = (r: { seconds: number; joules: number; counters: Readonly<Record<string, number>> }) => {
  const { simulatorSeconds: _host, traceSeconds: _trace, ...counters } = r.counters;
  return { seconds: r.seconds, joules: r.joules, counters };
};

it('a second product of the same matrix skips the replay, keeps its figures and computes the new result', async () => {
  const gpu = gpuSim();
  const a = skewedMatrix(2000, 2000, 30_000, 3, 'f32');
  const [x1, x2] = [randomDense(2000, 16, 'f32', 4), randomDense(2000, 16, 'f32', 5)];
  const first = await gpu.run({ kind: 'spmm' }, { a, x: x1 });
  const second = await gpu.run({ kind: 'spmm' }, { a, x: x2 });
  expect(first.counters!['traceSeconds']).toBeGreaterThan(0);
  expect(second.counters!['traceSeconds']).toBe(0);
  expect(modelled(second)).toEqual(modelled(first));
  const want = spmmReference(a, x2.data, 16);
  const got = second.output.data;
  for (let i = 0; i < want.length; i++) expect(got[i]).toBeCloseTo(want[i]!, 3);

  // Other rows, another width, another matrix of the same shape: each replayed.
  const rows = await gpu.run({ kind: 'spmm' }, { a, x: x2 }, [0, 1000]);
  const wide = await gpu.run({ kind: 'spmm' }, { a, x: randomDense(2000, 32, 'f32', 6) });
  const other = await gpu.run({ kind: 'spmm' }, { a: skewedMatrix(2000, 2000, 30_000, 7, 'f32'), x: x2 });
  for (const r of [rows, wide, other]) expect(r.counters!['traceSeconds']).toBeGreaterThan(0);
});

it('a product that reuses what it learnt still refuses a column index changed since', () => expectChangedIndexRefused(gpuSim()));
