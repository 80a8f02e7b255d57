// Every native kernel matches its TypeScript reference on every shared real dataset (skipped
// when ../shared/datasets is absent, as in a user's clone).

import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CsrMatrix } from '../../src/data/csr.js';
import { denseFeatures } from '../../src/generators/index.js';
import { loadMatrixMarket } from '../../src/io/index.js';
import { bfs } from '../../src/kernels/bfs.js';
import { msbfs } from '../../src/kernels/msbfs.js';
import { bfsReference, msbfsReference } from '../../src/kernels/reference.js';
import { spmm } from '../../src/kernels/spmm.js';
import { spmv } from '../../src/kernels/spmv.js';
import { firstDifference, firstSpmmMismatch } from '../support/compare.js';
import { datasetFiles, haveDatasets } from '../support/datasets.js';

describe.skipIf(!haveDatasets)('kernels on the shared datasets', () => {
  for (const file of datasetFiles()) {
    it(basename(file), async () => {
      const a = (await loadMatrixMarket(file, { format: 'coordinate' })) as CsrMatrix;
      for (const [k, precision] of [
        [8, 'f32'],
        [3, 'f64'],
      ] as const) {
        const x = denseFeatures({ rows: a.cols, cols: k, precision, seed: k });
        const y = await spmm(a, x);
        expect(firstSpmmMismatch(a, x.data, k, y.data)).toBe(-1);
      }
      const v = denseFeatures({ rows: a.cols, cols: 1, precision: 'f64', seed: 9 }).data;
      expect(firstSpmmMismatch(a, v, 1, await spmv(a, v))).toBe(-1);
      const mid = Math.floor(a.rows / 2);
      const part = await spmm(a, denseFeatures({ rows: a.cols, cols: 4, seed: 1 }), { rows: [mid, a.rows] });
      expect(firstSpmmMismatch(a, denseFeatures({ rows: a.cols, cols: 4, seed: 1 }).data, 4, part.data, mid, a.rows)).toBe(-1);

      if (a.rows !== a.cols) return;
      const sources = [0, Math.floor(a.rows / 3), a.rows - 1];
      for (const s of sources) {
        const r = await bfs(a, s);
        expect(firstDifference(r.depth, bfsReference(a, s))).toBe(-1);
      }
      const ms = await msbfs(a, sources);
      expect(firstDifference(ms.depths, msbfsReference(a, Int32Array.from(sources)))).toBe(-1);
    });
  }
});
