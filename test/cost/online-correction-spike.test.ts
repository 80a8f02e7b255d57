// A single 50x spike moves the factor by at most one maxStep (1.25x) and is then forgotten.

import { describe, expect, it } from 'vitest';
import { OnlineCorrection } from '../../src/cost/fit.js';

describe('OnlineCorrection spike', () => {
  it('does not move a settled factor at all, and the spike leaves the window', () => {
    const corr = new OnlineCorrection();
    for (let i = 0; i < 10; i++) corr.observe('k', 1, 2);
    const before = corr.factor('k');
    const after = corr.observe('k', 1, 100); // 50x the usual ratio
    expect(after / before).toBeLessThanOrEqual(1.25);
    expect(after).toBeCloseTo(before, 12);
    for (let i = 0; i < corr.options.window; i++) corr.observe('k', 1, 2);
    expect(corr.factor('k')).toBeCloseTo(2, 12);
    expect(corr.toObject().entries[0]!.window.every((x) => Math.abs(x - Math.log(2)) < 1e-12)).toBe(true);
  });

  it('moves a fresh key by at most maxStep, then returns to the true factor', () => {
    const corr = new OnlineCorrection();
    const first = corr.observe('k', 1, 50);
    expect(first).toBeCloseTo(1.25, 12);
    let worst = first;
    for (let i = 0; i < 10; i++) worst = Math.max(worst, corr.observe('k', 1, 1));
    // Each step is bounded by 1.25x, so the spike's influence never compounds beyond 1.25^2.
    expect(worst).toBeLessThanOrEqual(1.25 ** 2 + 1e-12);
    expect(corr.factor('k')).toBeCloseTo(1, 12);
  });

  it('bounds every single step by maxStep whatever the observations', () => {
    const corr = new OnlineCorrection({ maxStep: 1.1 });
    let prev = 1;
    for (const ratio of [50, 0.01, 3, 1e6, 1e-6, 1, 1, 7]) {
      const f = corr.observe('k', 1, ratio);
      expect(Math.abs(Math.log(f / prev))).toBeLessThanOrEqual(Math.log(1.1) + 1e-12);
      prev = f;
    }
  });
});
