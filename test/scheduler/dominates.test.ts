import { expect, it } from 'vitest';
import { dominates } from '../../src/scheduler/pareto.js';

it('dominates: no worse everywhere and strictly better somewhere, over the first m objectives', () => {
  expect(dominates([1, 2], [1, 3], 2)).toBe(true);
  expect(dominates([1, 3], [1, 2], 2)).toBe(false);
  expect(dominates([1, 2], [1, 2], 2)).toBe(false);
  expect(dominates([0, 5], [1, 2], 2)).toBe(false);
  expect(dominates([1, 2, 3], [1, 2, 4], 3)).toBe(true);
  expect(dominates([1, 2, 9], [1, 3, 4], 2)).toBe(true); // objective 2 is beyond m
  expect(dominates(new Float64Array([-0, 1]), [0, 1], 2)).toBe(false);
  expect(dominates([NaN, 0], [1, 1], 2)).toBe(false);
  expect(dominates([1, 1], [NaN, 2], 2)).toBe(false);
  expect(dominates([1, 1], [Infinity, 1], 2)).toBe(true);
});
