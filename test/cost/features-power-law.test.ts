// The power-law fit finds a heavy tail in Kronecker graphs and none in grids or uniform graphs.

import { describe, expect, it } from 'vitest';
import { matrixFeatures } from '../../src/cost/features.js';
import { generate, parseGeneratorSpec } from '../../src/generators/index.js';

describe('matrixFeatures power-law fit', () => {
  for (const spec of ['kronecker:scale=12', 'kronecker:scale=14,seed=5', 'kronecker:scale=16,edgeFactor=4']) {
    it(`${spec} has alpha in [2, 3]`, () => {
      const f = matrixFeatures(generate(parseGeneratorSpec(spec)));
      expect(f.powerLaw.state).toBe('fitted');
      if (f.powerLaw.state !== 'fitted') return;
      expect(f.powerLaw.alpha).toBeGreaterThanOrEqual(2);
      expect(f.powerLaw.alpha).toBeLessThanOrEqual(3);
      expect(f.powerLaw.tailRows).toBeGreaterThanOrEqual(50);
      expect(f.rowLength.gini).toBeGreaterThan(0.5);
    });
  }

  it('a grid is not fitted: its lengths span 1..4', () => {
    const f = matrixFeatures(generate(parseGeneratorSpec('grid:rows=200,cols=200,deleteFraction=0.2')));
    expect(f.powerLaw).toMatchObject({ state: 'not-fitted', reason: expect.stringMatching(/spans 8x/) });
    expect(f.rowLength.gini).toBeLessThan(0.2);
  });

  it('a uniform random graph is not fitted: the best fit is poor', () => {
    const f = matrixFeatures(generate(parseGeneratorSpec('erdos-renyi:n=20000,m=400000')));
    expect(f.powerLaw).toMatchObject({ state: 'not-fitted', reason: expect.stringMatching(/^best fit is poor: KS distance/) });
  });

  it('too few rows are not fitted', () => {
    const f = matrixFeatures(generate(parseGeneratorSpec('kronecker:scale=4')));
    expect(f.powerLaw).toMatchObject({ state: 'not-fitted', reason: expect.stringMatching(/^fewer than 50 non-empty rows/) });
  });
});
