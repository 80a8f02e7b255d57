// BFS levels launched back to back on thin frontiers (road networks, meshes: thousands of levels
// of a few vertices) on a real GPU (skipped where there is none): depths and per-level frontier
// sizes equal the reference's, through the switches between batched and per-level steps, on
// long thin grids with and without deleted edges and on a path.

import { describe, expect, it } from 'vitest';
import type { CsrMatrix } from '../../../src/data/csr.js';
import { cudaProbe, gpuBackend } from '../../../src/devices/backends/gpu.js';
import { loadProfile } from '../../../src/devices/spec.js';
import { generate } from '../../../src/generators/index.js';
import { bfsReference } from '../../../src/kernels/reference.js';
import { firstDifference } from '../../support/compare.js';
import { path } from './gpu-fixtures.js';

const probe = cudaProbe();

/** Vertices at each depth, from the reference depths. */
function levelSizes(depth: Int32Array): number[] {
  const sizes: number[] = [];
  for (const d of depth) if (d >= 0) sizes[d] = (sizes[d] ?? 0) + 1;
  return sizes;
}

describe.skipIf(!probe.available)('BFS on thin frontiers on a CUDA device', () => {
  const device = gpuBackend.create('gpu0', loadProfile('test', 'gpu', 'cuda', gpuBackend.params));
  const cases: [string, CsrMatrix, number[]][] = [
    ['a 2000 x 8 grid', generate({ kind: 'grid', rows: 2000, cols: 8, seed: 1 }), [0, 7, 8003]],
    ['a 600 x 30 road-like grid (20% of edges deleted)', generate({ kind: 'grid', rows: 600, cols: 30, deleteFraction: 0.2, seed: 2 }), [0, 9000, 17999]],
    ['a path of 5000 vertices', path(5000), [0, 2500, 4999]],
  ];
  for (const [name, g, sources] of cases) {
    it(`${name}: depths and frontier sizes are the reference's`, async () => {
      for (const source of sources) {
        const want = bfsReference(g, source);
        const r = await device.run({ kind: 'bfs', source }, { graph: g });
        expect(firstDifference(r.output.depth, want)).toBe(-1);
        expect(Array.from(r.output.frontier)).toEqual(levelSizes(want));
        expect(r.counters['levels']).toBe(levelSizes(want).length);
      }
    });
  }
});
