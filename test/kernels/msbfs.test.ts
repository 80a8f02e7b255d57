// Multi-source BFS equals one reference BFS per source, across batches of 64 lanes.

import { describe, expect, it } from 'vitest';
import { symmetrize } from '../../src/data/convert.js';
import { generate, parseGeneratorSpec } from '../../src/generators/index.js';
import { msbfs } from '../../src/kernels/msbfs.js';
import { msbfsReference } from '../../src/kernels/reference.js';
import { firstDifference } from '../support/compare.js';
import { skewedMatrix } from '../support/random.js';

describe('msbfs', () => {
  const directed = skewedMatrix(6000, 6000, 20_000, 13, 'pattern');
  const undirected = symmetrize(directed);

  for (const [name, g] of [
    ['directed', directed],
    ['undirected', undirected],
  ] as const) {
    it(`${name}: 130 sources (three batches, duplicates included)`, async () => {
      const sources = Int32Array.from({ length: 130 }, (_, i) => (i * 97) % g.rows);
      sources[5] = sources[4]!;
      const r = await msbfs(g, sources);
      expect(firstDifference(r.depths, msbfsReference(g, sources))).toBe(-1);
    });
  }

  it('a large grid with 64 sources takes the multi-threaded push path and stays exact', async () => {
    // Frontiers of 64 spreading searches on a 400x400 grid hold tens of thousands of edges:
    // above the one-thread limit, below the pull threshold.
    const grid = generate(parseGeneratorSpec('grid:rows=400,cols=400,seed=3'));
    const sources = Int32Array.from({ length: 64 }, (_, i) => (i * 2503) % grid.rows);
    const r = await msbfs(grid, sources);
    expect(firstDifference(r.depths, msbfsReference(grid, sources))).toBe(-1);
  });

  it('accepts a plain array and no sources', async () => {
    const r = await msbfs(undirected, [1, 2]);
    expect(r.depths.length).toBe(2 * undirected.rows);
    expect((await msbfs(undirected, [])).depths.length).toBe(0);
  });
});
