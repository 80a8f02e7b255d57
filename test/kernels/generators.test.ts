// Every native kernel matches its TypeScript reference on every generator family.

import { describe, expect, it } from 'vitest';
import { denseFeatures, generate, parseGeneratorSpec } from '../../src/generators/index.js';
import { bfs } from '../../src/kernels/bfs.js';
import { msbfs } from '../../src/kernels/msbfs.js';
import { bfsReference, checkBfsParents, msbfsReference } from '../../src/kernels/reference.js';
import { spmm } from '../../src/kernels/spmm.js';
import { spmv } from '../../src/kernels/spmv.js';
import { firstDifference, firstSpmmMismatch } from '../support/compare.js';

const SPECS = [
  'kronecker:scale=12,seed=3',
  'kronecker:scale=11,directed=true,seed=4',
  'erdos-renyi:n=5000,m=40000,seed=5',
  'erdos-renyi:n=3000,m=20000,directed=true,seed=6',
  'grid:rows=60,cols=70,deleteFraction=0.2,seed=7',
  'banded:n=4000,halfBandwidth=12,fill=0.5,seed=8',
];

describe('kernels on every generator family', () => {
  for (const text of SPECS) {
    it(text, async () => {
      const g = generate(parseGeneratorSpec(text));
      for (const [k, precision] of [
        [1, 'f64'],
        [16, 'f32'],
        [32, 'f64'],
        [40, 'f32'],
      ] as const) {
        const x = denseFeatures({ rows: g.cols, cols: k, precision, seed: k });
        expect(firstSpmmMismatch(g, x.data, k, (await spmm(g, x)).data)).toBe(-1);
      }
      const v = denseFeatures({ rows: g.cols, cols: 1, precision: 'f32', seed: 1 }).data;
      expect(firstSpmmMismatch(g, v, 1, await spmv(g, v))).toBe(-1);
      const sources = [0, 17, g.rows - 1];
      for (const s of sources) {
        for (const direction of ['auto', 'top-down', 'bottom-up'] as const) {
          const r = await bfs(g, s, { direction, parents: true });
          expect(firstDifference(r.depth, bfsReference(g, s))).toBe(-1);
          expect(checkBfsParents(g, s, r.depth, r.parent!)).toBe(-1);
        }
      }
      const ms = await msbfs(g, sources);
      expect(firstDifference(ms.depths, msbfsReference(g, Int32Array.from(sources)))).toBe(-1);
    });
  }
});
