// Above the size threshold the gap and locality figures come from a row sample, and they stay
// within the stated error bound of the exact figures.

import { describe, expect, it } from 'vitest';
import { matrixFeatures } from '../../src/cost/features.js';
import { generate, parseGeneratorSpec } from '../../src/generators/index.js';

describe('matrixFeatures sampling', () => {
  for (const spec of ['kronecker:scale=15', 'erdos-renyi:n=100000,m=600000', 'grid:rows=300,cols=300,deleteFraction=0.3']) {
    it(`${spec}: sampled figures within the bound`, () => {
      const a = generate(parseGeneratorSpec(spec));
      const exact = matrixFeatures(a);
      const sampled = matrixFeatures(a, { sampleAbove: a.nnz - 1, sampleRows: 20_000 });
      expect(exact.coverage).toEqual({ state: 'exact' });
      expect(sampled.coverage.state).toBe('sampled');
      if (sampled.coverage.state !== 'sampled') return;
      const { errorBound, fraction, rows } = sampled.coverage;
      expect(errorBound).toBeGreaterThan(0);
      expect(errorBound).toBeLessThan(0.2);
      expect(fraction).toBeGreaterThan(0);
      expect(fraction).toBeLessThanOrEqual(1);
      expect(rows).toBeGreaterThanOrEqual(20_000);
      expect(Math.abs(sampled.sameLine - exact.sameLine)).toBeLessThanOrEqual(errorBound);
      expect(Math.abs(sampled.samePage - exact.samePage)).toBeLessThanOrEqual(errorBound);
      const pairs = a.nnz - (a.rows - exact.rowLength.empty);
      for (let b = 0; b < exact.columnGaps.length; b++) {
        expect(Math.abs(sampled.columnGaps[b]! - exact.columnGaps[b]!) / pairs).toBeLessThanOrEqual(errorBound);
      }
      // Row-length figures and the bandwidth never come from the sample.
      expect(sampled.rowLength).toEqual(exact.rowLength);
      expect(sampled.bandwidth).toBe(exact.bandwidth);
      expect(sampled.meanDistance / exact.meanDistance).toBeGreaterThan(0.8);
      expect(sampled.meanDistance / exact.meanDistance).toBeLessThan(1.25);
    });
  }

  it('stays exact at or below the threshold', () => {
    const a = generate(parseGeneratorSpec('kronecker:scale=10'));
    expect(matrixFeatures(a, { sampleAbove: a.nnz }).coverage).toEqual({ state: 'exact' });
  });
});
