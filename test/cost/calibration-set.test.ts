// The full calibration measures everything the quick one does and more (issue 18: the full one
// used different multi-source BFS counts and fitted worse), and both sets hold graphs that a
// search reaches only partly, without which per-vertex and per-reached-vertex costs are collinear.

import { describe, expect, it } from 'vitest';
import { FULL_SET, QUICK_SET } from '../../src/cost/calibration-set.js';
import { graphFeatures } from '../../src/cost/features.js';
import { generate } from '../../src/generators/index.js';

const key = (x: unknown): string => JSON.stringify(x);

describe('calibration sets', () => {
  it('the full set contains the quick one, input for input and configuration for configuration', () => {
    for (const field of ['inputs', 'spmm', 'spmmRanges', 'msbfsSources'] as const) {
      const full = new Set(FULL_SET[field].map(key));
      for (const x of QUICK_SET[field]) expect(full.has(key(x)), `${field} ${key(x)}`).toBe(true);
      expect(FULL_SET[field].length).toBeGreaterThanOrEqual(QUICK_SET[field].length);
    }
    expect(FULL_SET.repeats).toBeGreaterThanOrEqual(QUICK_SET.repeats);
  });

  it('the quick set has graphs a search covers fully, partly and hardly at all', () => {
    const reach = QUICK_SET.inputs.filter((s) => s.kind !== 'banded' || s.n <= 4096).map((s) => graphFeatures(generate(s)).reached);
    expect(reach.some((r) => r > 0.95)).toBe(true);
    expect(reach.some((r) => r > 0.2 && r < 0.8)).toBe(true);
    expect(reach.some((r) => r < 0.05)).toBe(true);
  });
});
