// A consistent bias is learnt within ceil(ln b / ln maxStep) observations, never faster than
// one maxStep per observation, and never beyond maxFactor.

import { describe, expect, it } from 'vitest';
import { OnlineCorrection } from '../../src/cost/fit.js';

describe('OnlineCorrection convergence', () => {
  it('matches a consistent 2x bias after 4 observations, one bounded step at a time', () => {
    const corr = new OnlineCorrection();
    const factors: number[] = [];
    for (let i = 0; i < 4; i++) factors.push(corr.observe('cpu/spmm', 1e-3, 2e-3));
    expect(factors.slice(0, 3).map((f) => Math.round(f * 1e6) / 1e6)).toEqual([1.25, 1.5625, 1.953125]);
    expect(corr.factor('cpu/spmm')).toBeCloseTo(2, 12);
    for (let i = 0; i < 20; i++) corr.observe('cpu/spmm', 1e-3, 2e-3);
    expect(corr.factor('cpu/spmm')).toBeCloseTo(2, 12);
    expect(corr.count('cpu/spmm')).toBe(24);
  });

  it('tracks a 0.5x bias too, and keys are independent', () => {
    const corr = new OnlineCorrection();
    for (let i = 0; i < 10; i++) corr.observe('gpu/bfs', 4, 2);
    expect(corr.factor('gpu/bfs')).toBeCloseTo(0.5, 12);
    expect(corr.factor('cpu/bfs')).toBe(1);
    expect(corr.count('cpu/bfs')).toBe(0);
    expect(corr.keys()).toEqual(['gpu/bfs']);
  });

  it('caps the factor at maxFactor', () => {
    const corr = new OnlineCorrection({ maxFactor: 8 });
    for (let i = 0; i < 100; i++) corr.observe('k', 1, 1000);
    expect(corr.factor('k')).toBeCloseTo(8, 12);
    for (let i = 0; i < 100; i++) corr.observe('k', 1000, 1);
    expect(corr.factor('k')).toBeCloseTo(1 / 8, 12);
  });
});
