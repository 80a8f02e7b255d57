// A level-synchronous GPU BFS launches at least one kernel per level, so a high-diameter graph
// pays the launch overhead thousands of times however little work each level holds.

import { expect, it } from 'vitest';
import { gridGraph } from '../../../src/generators/index.js';
import { gpuSim, pathGraph } from './helpers.js';

const launch = 5e-6;

it('a path pays one launch per level and its time grows with the diameter', async () => {
  const gpu = gpuSim();
  const short = await gpu.run({ kind: 'bfs', source: 0 }, { graph: pathGraph(100) });
  const long = await gpu.run({ kind: 'bfs', source: 0 }, { graph: pathGraph(1000) });
  expect(long.counters['levels']).toBeGreaterThanOrEqual(999);
  expect(long.counters['kernels']!).toBeGreaterThanOrEqual(long.counters['levels']!);
  expect(long.seconds).toBeGreaterThanOrEqual(long.counters['levels']! * launch);
  expect(long.seconds).toBeGreaterThan(8 * short.seconds);
});

it('a long grid costs more than a square one of the same width', async () => {
  const gpu = gpuSim();
  const square = await gpu.run({ kind: 'bfs', source: 0 }, { graph: gridGraph({ rows: 20, cols: 20, seed: 1 }) });
  const long = await gpu.run({ kind: 'bfs', source: 0 }, { graph: gridGraph({ rows: 20, cols: 200, seed: 1 }) });
  expect(long.counters['levels']!).toBeGreaterThan(200);
  expect(long.seconds).toBeGreaterThan(long.counters['levels']! * launch);
  expect(long.seconds).toBeGreaterThan(4 * square.seconds);
});
