// A probe's spread (the uncertainty a plan states for a probed figure) is robust to one slow run:
// half the interquartile range over the median, not the whole range.

import { describe, expect, it } from 'vitest';
import { probeSpread } from '../../src/scheduler/probe-sets.js';

describe('probeSpread', () => {
  it('ignores one preempted run among five', () => {
    // Four runs within 2% and one 50x slow: the whole range would say +-2,450%.
    expect(probeSpread([1, 1.01, 1.01, 1.02, 50])).toBeCloseTo((1.02 - 1.01) / 1.01 / 2, 12);
  });

  it('is half the whole range over the median for three runs, and 0 without runs or time', () => {
    expect(probeSpread([1, 2, 3])).toBeCloseTo(0.5, 12);
    expect(probeSpread([])).toBe(0);
    expect(probeSpread([0, 0, 0])).toBe(0);
  });

  it('reads the quartiles of longer series', () => {
    const runs = Array.from({ length: 9 }, (_, i) => 10 + i);
    // Quartiles 12 and 16, median 14.
    expect(probeSpread(runs)).toBeCloseTo(4 / 14 / 2, 12);
  });
});
