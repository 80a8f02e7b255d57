// Conformance: SpMM and SpMV on every backend, every generator family, both precisions, several
// widths and split row ranges, against the TypeScript reference.

import { describe, it } from 'vitest';
import { checkSpmm, conformanceDevices, family, FAMILIES, features, splitRanges } from './harness.js';

const devices = await conformanceDevices();

describe.each(devices.map((d) => [d.backend, d] as const))('%s: SpMM and SpMV', (_, device) => {
  for (const name of Object.keys(FAMILIES)) {
    it(name, async () => {
      const a = family(name);
      for (const [k, precision] of [
        [1, 'f64'],
        [1, 'f32'],
        [4, 'f32'],
        [8, 'f64'],
        [32, 'f32'],
        [37, 'f64'],
      ] as const) {
        await checkSpmm(device, a, features(a, k, precision));
      }
    });
  }

  it('row ranges (co-execution splits) join to the full product', async () => {
    const a = family('kronecker (power law, undirected)');
    await checkSpmm(device, a, features(a, 16, 'f32'), splitRanges(a.rows));
    await checkSpmm(device, a, features(a, 1, 'f64'), splitRanges(a.rows));
  });

  it('zero-width and empty operands', async () => {
    const a = family('grid (road-like)');
    await checkSpmm(device, a, features(a, 0, 'f32'));
    await checkSpmm(device, a, features(a, 8, 'f64'), [[a.rows, a.rows]]);
  });
});
