// One timing per configuration is the median of its repeats, and far-off repeats can be flagged.

import { describe, expect, it } from 'vitest';
import { findOutliers, robustRepeats } from '../../src/cost/fit.js';

describe('robustRepeats and findOutliers', () => {
  it('takes the median, unmoved by one slow run', () => {
    expect(robustRepeats([1.02, 0.98, 1.0, 9.7, 1.01])).toBe(1.01);
    expect(robustRepeats([4, 1, 3, 2])).toBe(2.5);
    expect(robustRepeats([7])).toBe(7);
  });

  it('refuses empty input and non-finite samples', () => {
    expect(() => robustRepeats([])).toThrow(/^robustRepeats: samples is empty/);
    expect(() => robustRepeats([1, NaN])).toThrow(/^robustRepeats: samples\[1\] = NaN is not a finite number$/);
    expect(() => robustRepeats([1, Infinity])).toThrow(/^robustRepeats: samples\[1\] = Infinity/);
  });

  it('flags the far-off repeat by modified z-score', () => {
    const r = findOutliers([1.02, 0.98, 1.0, 9.7, 1.01]);
    expect(r.outliers).toEqual([3]);
    expect(r.median).toBe(1.01);
    expect(findOutliers([1, 1.1, 0.9, 1.05]).outliers).toEqual([]);
  });

  it('still flags when more than half the samples are equal (MAD = 0)', () => {
    expect(findOutliers([5, 5, 5, 5, 6, 50]).outliers).toEqual([5]);
    expect(findOutliers([5, 5, 5]).outliers).toEqual([]);
    expect(() => findOutliers([1], 0)).toThrow(/^findOutliers: threshold must be a finite number > 0/);
  });
});
