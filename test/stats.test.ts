// median and quantiles (src/stats.ts): the one definition every layer uses, type-7 interpolation,
// typed errors on empty input, and no NaN from an infinite neighbour of the middle value.

import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../src/errors.js';
import { median, quantile, quantileSorted } from '../src/stats.js';

describe('median', () => {
  it('is the middle value, or halfway between the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([3, 1, 2, 10])).toBe(2.5);
    expect(median([7])).toBe(7);
    expect(median(Float64Array.of(4, 4, 1))).toBe(4);
  });

  it('leaves its input alone, small and large', () => {
    const small = [5, 3, 1];
    const large = Array.from({ length: 101 }, (_, i) => 100 - i);
    expect(median(small)).toBe(3);
    expect(median(large)).toBe(50);
    expect(small).toEqual([5, 3, 1]);
    expect(large[0]).toBe(100);
  });

  it('gives the middle value even beside an infinite one', () => {
    expect(median([1, 2, Infinity])).toBe(2);
  });

  it('refuses an empty input, naming the caller', () => {
    expect(() => median([])).toThrow(InvalidArgumentError);
    expect(() => median([], 'calibrate')).toThrow(/^calibrate: values must be a non-empty array/);
  });
});

describe('quantile', () => {
  it('interpolates between order statistics (type 7)', () => {
    expect(quantile([5, 1, 4, 2, 3], 0.9)).toBeCloseTo(4.6, 12);
    expect(quantile([5, 1, 4, 2, 3], 0)).toBe(1);
    expect(quantile([5, 1, 4, 2, 3], 1)).toBe(5);
    expect(quantileSorted(Float64Array.of(1, 2, 3, 4), 0.5)).toBe(2.5);
  });

  it('refuses q outside [0, 1]', () => {
    expect(() => quantile([1], 1.5)).toThrow(/^quantile: q must be a number in \[0, 1\], got 1.5/);
    expect(() => quantile([1], NaN)).toThrow(InvalidArgumentError);
  });
});
