// The profiles differ where the data sheets do: on a bandwidth-bound SpMM the A100 (2.0 TB/s)
// is slower than the H100 (3.35 TB/s) while moving the same bytes.

import { expect, it } from 'vitest';
import { randomDense } from '../../support/random.js';
import { gpuSim, uniformMatrix } from './helpers.js';

it('A100 is slower than H100 on a bandwidth-bound SpMM, with the same traffic', async () => {
  const a = uniformMatrix(50_000, 50_000, 16, 4);
  const x = randomDense(50_000, 32, 'f32', 3);
  const h = await gpuSim('h100-sxm').run({ kind: 'spmm' }, { a, x });
  const a100 = await gpuSim('a100-80gb').run({ kind: 'spmm' }, { a, x });
  expect(a100.counters['dramBytes']).toBe(h.counters['dramBytes']);
  expect(h.counters['achievedBandwidth']).toBe(3.35e12);
  expect(a100.seconds).toBeGreaterThan(1.2 * h.seconds);
});

it('average power never exceeds the board limit and never falls below idle', async () => {
  const a = uniformMatrix(20_000, 20_000, 16, 5);
  for (const profile of ['h100-sxm', 'a100-80gb']) {
    const gpu = gpuSim(profile);
    const r = await gpu.run({ kind: 'spmm' }, { a, x: randomDense(20_000, 16, 'f64', 1) });
    const watts = r.joules / r.seconds;
    expect(watts).toBeLessThanOrEqual(gpu.power.activeWatts * (1 + 1e-12));
    expect(watts).toBeGreaterThanOrEqual(gpu.power.idleWatts);
  }
});
