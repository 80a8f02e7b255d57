// The model is a pure function of the data and the spec: two runs give the same time, energy
// and counters (the simulator's own host wall time aside). Each run is on a device of its own,
// so the second replays too (a device keeps an SpMM's replay per matrix: replay-reuse.test.ts).

import { expect, it } from 'vitest';
import { kroneckerGraph } from '../../../src/generators/index.js';
import { randomDense, skewedMatrix } from '../../support/random.js';
import { gpuSim } from './helpers.js';

const HOST_TIMES = ['simulatorSeconds', 'traceSeconds'];
function modelled(r: { seconds: number; joules: number; counters: Readonly<Record<string, number>> }) {
  const counters = Object.fromEntries(Object.entries(r.counters).filter(([k]) => !HOST_TIMES.includes(k)));
  return { seconds: r.seconds, joules: r.joules, counters };
}

it('spmm, bfs and msbfs are deterministic', async () => {
  const [gpu, again] = [gpuSim(), gpuSim()];
  const a = skewedMatrix(3000, 3000, 40_000, 1, 'f32');
  const x = randomDense(3000, 16, 'f32', 2);
  const graph = kroneckerGraph({ scale: 12, seed: 2 });
  const sources = Int32Array.from([0, 5, 9, 100]);
  for (const run of [
    (d = gpu) => d.run({ kind: 'spmm' }, { a, x }),
    (d = gpu) => d.run({ kind: 'bfs', source: 3 }, { graph }),
    (d = gpu) => d.run({ kind: 'msbfs', sources }, { graph }),
  ]) {
    const first = modelled(await run(gpu));
    const second = modelled(await run(again));
    expect(second).toEqual(first);
    expect(first.seconds).toBeGreaterThan(0);
  }
});
