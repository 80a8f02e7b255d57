import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors.js';
import { STRATEGIES } from '../../src/scheduler/search/index.js';
import type { SearchOptions, SearchProblem } from '../../src/scheduler/search/types.js';

const good = (): SearchProblem => ({
  cardinality: new Int32Array([3, 3]),
  objectives: 2,
  evaluate: (g, out) => {
    out.set([g[0]!, g[1]!]);
    return true;
  },
});

describe.each([...STRATEGIES.keys()])('%s refuses malformed problems and options', (name) => {
  const strategy = STRATEGIES.get(name)!;
  const cases: Array<[string, Partial<SearchProblem> | null, Partial<SearchOptions> | null, RegExp]> = [
    ['a null problem', null, {}, /problem must be an object, got null/],
    ['no genes', { cardinality: new Int32Array(0) }, {}, /problem\.cardinality must be a non-empty Int32Array, got Int32Array\(0\)/],
    ['a plain-array cardinality', { cardinality: [3, 3] as never }, {}, /problem\.cardinality must be a non-empty Int32Array, got Array\(2\)/],
    ['a gene with no values', { cardinality: new Int32Array([3, 0]) }, {}, /problem\.cardinality\[1\] must be at least 1, got 0/],
    ['4 objectives', { objectives: 4 as never }, {}, /problem\.objectives must be 2 or 3, got 4/],
    ['no evaluate', { evaluate: undefined as never }, {}, /problem\.evaluate must be a function, got undefined/],
    ['null options', {}, null, /options must be an object, got null/],
    ['a misspelled option', {}, { budgets: 3 } as never, /unknown option "budgets" \(did you mean "budget"\?\)/],
    ['a fractional budget', {}, { budget: 2.5 }, /options\.budget must be an integer, got 2\.5/],
    ['a zero budget', {}, { budget: 0 }, /options\.budget must be in \[1, 2147483647\], got 0/],
    ['an odd population', {}, { population: 33 }, /options\.population must be even, got 33/],
    ['a negative seed', {}, { seed: -1 }, /seed must be an integer in \[0, 4294967295\] or a string, got -1/],
    ['a signal that is not one', {}, { signal: {} as never }, /options\.signal must be an AbortSignal, got object/],
  ];
  for (const [what, problem, options, message] of cases) {
    it(what, () => {
      const p = problem === null ? null : { ...good(), ...problem };
      const o = options === null ? null : { seed: 1, budget: 100, ...options };
      const call = () => strategy.search(p as SearchProblem, o as SearchOptions);
      expect(call).toThrow(InvalidArgumentError);
      expect(call).toThrow(new RegExp(`^${name}: ${message.source}`));
    });
  }

  it('refuses an evaluate that returns a non-boolean or NaN for a feasible genome', () => {
    const noReturn = { ...good(), evaluate: (_g: Int32Array, out: Float64Array) => void out.fill(1) } as unknown as SearchProblem;
    expect(() => strategy.search(noReturn, { seed: 1, budget: 100 })).toThrow(
      new RegExp(`^${name}: problem\\.evaluate must return a boolean, got undefined for genome \\[0, 0\\]`),
    );
    const partial = {
      ...good(),
      evaluate: (_g: Int32Array, out: Float64Array) => {
        out[0] = 1;
        return true;
      },
    };
    expect(() => strategy.search(partial, { seed: 1, budget: 100 })).toThrow(
      new RegExp(`^${name}: problem\\.evaluate wrote NaN for objective 1 of feasible genome \\[0, 0\\]`),
    );
  });
});

it('exhaustive refuses spaces above 2e6 genomes before evaluating any', () => {
  let calls = 0;
  const problem: SearchProblem = {
    cardinality: new Int32Array(7).fill(8),
    objectives: 2,
    evaluate: () => {
      calls++;
      return false;
    },
  };
  const call = () => STRATEGIES.get('exhaustive')!.search(problem, { seed: 1, budget: 1 });
  expect(call).toThrow(InvalidArgumentError);
  expect(call).toThrow(/^exhaustive: the space has 2097152 genomes \(7 genes\), more than the 2000000 it enumerates; use nsga2/);
  expect(calls).toBe(0);
});
