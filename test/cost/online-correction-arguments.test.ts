// OnlineCorrection refuses inputs that would poison the factor, and leaves its state unchanged.

import { describe, expect, it } from 'vitest';
import { OnlineCorrection } from '../../src/cost/fit.js';
import { InvalidArgumentError } from '../../src/errors.js';

describe('OnlineCorrection arguments', () => {
  it('refuses NaN, infinite, zero and negative values', () => {
    const corr = new OnlineCorrection();
    for (const [p, o] of [
      [NaN, 1],
      [1, NaN],
      [-1, 1],
      [1, -2],
      [0, 1],
      [1, 0],
      [Infinity, 1],
    ] as const) {
      expect(() => corr.observe('k', p, o)).toThrow(InvalidArgumentError);
    }
    expect(() => corr.observe('k', 1, -2)).toThrow(/^OnlineCorrection\.observe: observed must be a finite number > 0, got -2$/);
    expect(() => corr.observe('', 1, 1)).toThrow(/^OnlineCorrection\.observe: key must be a non-empty string/);
    expect(corr.count('k')).toBe(0);
    expect(corr.factor('k')).toBe(1);
  });

  it('refuses bad options', () => {
    expect(() => new OnlineCorrection({ maxStep: 1 })).toThrow(/^OnlineCorrection: maxStep must be a ratio > 1, got 1$/);
    expect(() => new OnlineCorrection({ window: 0 })).toThrow(/^OnlineCorrection: window must be in/);
    expect(() => new OnlineCorrection({ windw: 3 } as never)).toThrow(/did you mean "window"/);
  });
});
