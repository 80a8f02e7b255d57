// Many overlapping asynchronous kernel calls share the thread pool without deadlock and without
// seeing each other's data: each result equals the same call made alone.

import { describe, expect, it } from 'vitest';
import { denseFeatures, generate, parseGeneratorSpec } from '../../src/generators/index.js';
import { bfs } from '../../src/kernels/bfs.js';
import { bfsReference } from '../../src/kernels/reference.js';
import { spmm } from '../../src/kernels/spmm.js';
import { firstDifference, firstSpmmMismatch } from '../support/compare.js';

describe('concurrent native calls', () => {
  it('48 overlapping spmm and bfs calls all return their own correct results', async () => {
    const graphs = [
      generate(parseGeneratorSpec('kronecker:scale=12,seed=1')),
      generate(parseGeneratorSpec('grid:rows=80,cols=80,deleteFraction=0.1,seed=2')),
      generate(parseGeneratorSpec('erdos-renyi:n=6000,m=50000,seed=3')),
    ];
    const jobs: Promise<void>[] = [];
    for (let i = 0; i < 48; i++) {
      const g = graphs[i % graphs.length]!;
      if (i % 2 === 0) {
        const k = 1 + (i % 9) * 4;
        const x = denseFeatures({ rows: g.cols, cols: k, seed: i });
        jobs.push(spmm(g, x).then((y) => expect(firstSpmmMismatch(g, x.data, k, y.data)).toBe(-1)));
      } else {
        const s = (i * 131) % g.rows;
        jobs.push(bfs(g, s).then((r) => expect(firstDifference(r.depth, bfsReference(g, s))).toBe(-1)));
      }
    }
    await Promise.all(jobs);
  });
});
