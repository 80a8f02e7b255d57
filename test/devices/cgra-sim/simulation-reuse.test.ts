// A cgra-sim device simulates an SpMM's structure once per matrix, rows, width, precision and
// kind: a later product of the same matrix computes its result alone, accumulated in the
// simulation's own order (the same bits a fresh device gives), and reports the figures of the
// first. Another range, width or matrix is simulated afresh.

import { expect, it } from 'vitest';
import { expectChangedIndexRefused } from '../../support/changed-index.js';
import { randomDense, skewedMatrix } from '../../support/random.js';
import { cgraDevice } from './helpers.js';

const figures = (r: { seconds: number; joules: number; counters: Readonly<Record<string, number>> }) => {
  const { simulationWallSeconds: _host, reused: _reused, ...counters } = r.counters;
  return { seconds: r.seconds, joules: r.joules, counters };
};

it('a second product of the same matrix is not simulated again and gives what a fresh device gives', async () => {
  const device = cgraDevice();
  const a = skewedMatrix(3000, 3000, 40_000, 3, 'f64');
  const [x1, x2] = [randomDense(3000, 16, 'f64', 4), randomDense(3000, 16, 'f64', 5)];
  const first = await device.run({ kind: 'spmm' }, { a, x: x1 });
  const again = await device.run({ kind: 'spmm' }, { a, x: x2 });
  const fresh = await cgraDevice().run({ kind: 'spmm' }, { a, x: x2 });
  expect([first.counters['reused'], again.counters['reused'], fresh.counters['reused']]).toEqual([0, 1, 0]);
  expect(figures(again)).toEqual(figures(first));
  expect(figures(fresh)).toEqual(figures(first));
  expect(Array.from(again.output.data)).toEqual(Array.from(fresh.output.data));

  // Other rows and another width: simulated, so their figures are their own.
  const rows = await device.run({ kind: 'spmm' }, { a, x: x2 }, [0, 1500]);
  const wide = await device.run({ kind: 'spmm' }, { a, x: randomDense(3000, 32, 'f64', 6) });
  expect([rows.counters['reused'], wide.counters['reused']]).toEqual([0, 0]);
  expect(rows.counters['cycles']).toBeLessThan(first.counters['cycles']!);
  expect(wide.counters['cycles']).toBeGreaterThan(first.counters['cycles']!);
});

it('a product that reuses what it learnt still refuses a column index changed since', () => expectChangedIndexRefused(cgraDevice()));
