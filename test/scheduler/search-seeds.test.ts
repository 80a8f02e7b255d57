import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors.js';
import { nsga2 } from '../../src/scheduler/search/nsga2.js';
import { tableProblem } from './helpers.js';

describe('nsga2 seeds', () => {
  it('evaluates the seeds first and keeps them in the archive', () => {
    const seeds = [new Int32Array(8).fill(0), new Int32Array(8).fill(4), new Int32Array([0, 1, 2, 3, 4, 0, 1, 2]), new Int32Array(8).fill(0)];
    const r = nsga2.search({ ...tableProblem(2, 8, 5), seeds }, { seed: 1, budget: 500 });
    // The repeated seed is evaluated once.
    for (let s = 0; s < 3; s++) expect(Array.from(r.genomes.subarray(8 * s, 8 * s + 8))).toEqual(Array.from(seeds[s]!));
    expect(r.count).toBe(500);
  });

  const bad: Array<[string, unknown, RegExp]> = [
    ['a short genome', [new Int32Array(7)], /^nsga2: problem\.seeds\[0\] must be an Int32Array of 8 genes, got Int32Array\(7\)/],
    ['a plain array', [new Int32Array(8), [0, 0, 0, 0, 0, 0, 0, 0]], /^nsga2: problem\.seeds\[1\] must be an Int32Array of 8 genes, got Array\(8\)/],
    ['a gene out of range', [new Int32Array([0, 0, 5, 0, 0, 0, 0, 0])], /^nsga2: problem\.seeds\[0\]\[2\] must be in \[0, 4\], got 5/],
    ['a negative gene', [new Int32Array([0, 0, 0, 0, 0, 0, 0, -1])], /^nsga2: problem\.seeds\[0\]\[7\] must be in \[0, 4\], got -1/],
    ['not an array', new Int32Array(8), /^nsga2: problem\.seeds must be an array of Int32Array genomes, got Int32Array\(8\)/],
  ];
  for (const [what, seeds, message] of bad) {
    it(`refuses ${what}`, () => {
      const problem = { ...tableProblem(2, 8, 5), seeds: seeds as Int32Array[] };
      expect(() => nsga2.search(problem, { seed: 1, budget: 100 })).toThrow(InvalidArgumentError);
      expect(() => nsga2.search(problem, { seed: 1, budget: 100 })).toThrow(message);
      expect(problem.calls).toBe(0);
    });
  }

  it('refuses more seeds than the budget can evaluate', () => {
    const problem = { ...tableProblem(2, 8, 5), seeds: [new Int32Array(8), new Int32Array(8), new Int32Array(8)] };
    expect(() => nsga2.search(problem, { seed: 1, budget: 2 })).toThrow(/^nsga2: problem\.seeds holds 3 genomes, more than options\.budget \(2\) can evaluate/);
  });
});
