// Conformance on the shared real datasets (skipped when ../shared/datasets is absent).

import { basename } from 'node:path';
import { describe, it } from 'vitest';
import type { CsrMatrix } from '../../../src/data/csr.js';
import { loadMatrixMarket } from '../../../src/io/index.js';
import { datasetFiles, haveDatasets } from '../../support/datasets.js';
import { checkBfs, checkMsbfs, checkSpmm, conformanceDevices, features, sourcesOf, splitRanges } from './harness.js';

const devices = await conformanceDevices();

describe.skipIf(!haveDatasets)('devices on the shared datasets', () => {
  for (const file of datasetFiles()) {
    it(basename(file), async () => {
      const a = (await loadMatrixMarket(file, { format: 'coordinate' })) as CsrMatrix;
      const x8 = features(a, 8, 'f32');
      const x1 = features(a, 1, 'f64');
      const x3 = features(a, 3, 'f64');
      for (const device of devices) {
        await checkSpmm(device, a, x8);
        await checkSpmm(device, a, x3, splitRanges(a.rows));
        await checkSpmm(device, a, x1);
        if (a.rows !== a.cols) continue;
        const sources = sourcesOf(a, 2);
        await checkBfs(device, a, sources);
        await checkMsbfs(device, a, Int32Array.from(sourcesOf(a, 40)));
      }
    }, 120_000);
  }
});
