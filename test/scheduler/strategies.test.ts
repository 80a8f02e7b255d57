import { expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors.js';
import { chooseStrategy, exhaustive, nsga2, spaceSize, STRATEGIES } from '../../src/scheduler/search/index.js';

it('STRATEGIES lists exhaustive and nsga2 by name, each with a description', () => {
  expect([...STRATEGIES.keys()]).toEqual(['exhaustive', 'nsga2']);
  for (const [name, s] of STRATEGIES) {
    expect(s.name).toBe(name);
    expect(s.description.length).toBeGreaterThan(10);
  }
});

it('spaceSize multiplies cardinalities and saturates at Infinity beyond 2^53', () => {
  expect(spaceSize(new Int32Array([3, 4, 5]))).toBe(60);
  expect(spaceSize(new Int32Array(0))).toBe(1);
  expect(spaceSize(new Int32Array(53).fill(2))).toBe(2 ** 53);
  expect(spaceSize(new Int32Array(54).fill(2))).toBe(Infinity);
  expect(spaceSize(new Int32Array(100).fill(1000))).toBe(Infinity);
  expect(() => spaceSize([2, 3] as never)).toThrow(/^spaceSize: cardinality must be an Int32Array, got Array\(2\)/);
});

it('chooseStrategy enumerates up to the limit and searches above it', () => {
  expect(chooseStrategy(new Int32Array(8).fill(4))).toBe(exhaustive); // 65536
  expect(chooseStrategy(new Int32Array([10, 10, 10, 10, 10]))).toBe(exhaustive); // exactly 1e5
  expect(chooseStrategy(new Int32Array([10, 10, 10, 10, 10, 2]))).toBe(nsga2);
  expect(chooseStrategy(new Int32Array(8).fill(15))).toBe(nsga2);
  expect(chooseStrategy(new Int32Array(8).fill(4), 1000)).toBe(nsga2);
  expect(() => chooseStrategy(new Int32Array(2), 3e6)).toThrow(InvalidArgumentError);
  expect(() => chooseStrategy(new Int32Array(2), 3e6)).toThrow(/^chooseStrategy: exhaustiveLimit must be a number in \[0, 2000000\], got 3000000/);
  expect(() => chooseStrategy(null as never)).toThrow(/^chooseStrategy: cardinality must be an Int32Array, got null/);
});
