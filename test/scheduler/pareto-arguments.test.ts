import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors.js';
import { crowdingDistance, dominates, hypervolume, nonDominatedSort, paretoFront } from '../../src/scheduler/pareto.js';

const v = new Float64Array([1, 2, 2, 1, 3, 3]);
const ids = new Int32Array([0, 1, 2]);

describe('pareto functions refuse malformed input with a typed error naming themselves', () => {
  const cases: Array<[string, () => unknown, RegExp]> = [
    ['dominates', () => dominates([1, 2], [1], 2), /^dominates: points must have at least m = 2 objectives, got lengths 2 and 1/],
    ['dominates', () => dominates([1], [1], 0), /^dominates: m must be a positive integer, got 0/],
    ['paretoFront', () => paretoFront(v, 4, 1), /^paretoFront: m \(objectives\) must be 2 or 3, got 4/],
    ['paretoFront', () => paretoFront([1, 2] as unknown as Float64Array, 2, 1), /^paretoFront: values must be a Float64Array, got Array\(2\)/],
    ['paretoFront', () => paretoFront(v, 2, 4), /^paretoFront: count must be an integer in \[0, 3\] \(rows of values\), got 4/],
    ['paretoFront', () => paretoFront(v, 2, 1.5), /^paretoFront: count must be an integer in \[0, 3\]/],
    ['paretoFront', () => paretoFront(new Float64Array([1, NaN]), 2, 1), /^paretoFront: objective 1 of point 0 is NaN/],
    ['paretoFront', () => paretoFront(v, 2, 3, 1 as never), /^paretoFront: include must be a function, got 1/],
    ['nonDominatedSort', () => nonDominatedSort(v, 2, new Int32Array([0, 3])), /^nonDominatedSort: indices\[1\] = 3 is not a row of values \(3 rows of 2\)/],
    ['nonDominatedSort', () => nonDominatedSort(v, 2, [0] as never), /^nonDominatedSort: indices must be an Int32Array, got Array\(1\)/],
    ['crowdingDistance', () => crowdingDistance(v, 3, new Int32Array([0, 2])), /^crowdingDistance: front\[1\] = 2 is not a row of values \(2 rows of 3\)/],
    ['crowdingDistance', () => crowdingDistance(new Float64Array([NaN, 0]), 2, new Int32Array([0])), /^crowdingDistance: objective 0 of point 0 is NaN/],
    ['hypervolume', () => hypervolume(v, 1, ids, [4]), /^hypervolume: m \(objectives\) must be 2 or 3, got 1/],
    ['hypervolume', () => hypervolume(v, 2, ids, [4, Infinity]), /^hypervolume: reference\[1\] must be a finite number, got Infinity/],
    ['hypervolume', () => hypervolume(v, 2, ids, [4, NaN]), /^hypervolume: reference\[1\] must be a finite number, got NaN/],
    ['hypervolume', () => hypervolume(v, 2, ids, [4, 4, 4]), /^hypervolume: reference must hold m = 2 numbers, got Array\(3\)/],
    ['hypervolume', () => hypervolume(v, 2, ids, null as never), /^hypervolume: reference must hold m = 2 numbers, got null/],
    ['hypervolume', () => hypervolume(v, 2, new Int32Array([-1]), [4, 4]), /^hypervolume: front\[0\] = -1 is not a row of values/],
  ];
  for (const [name, call, message] of cases) {
    it(`${name}: ${message.source.slice(1, 70)}`, () => {
      expect(call).toThrow(InvalidArgumentError);
      expect(call).toThrow(message);
    });
  }
});
