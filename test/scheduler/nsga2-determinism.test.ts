import { expect, it } from 'vitest';
import { nsga2 } from '../../src/scheduler/search/nsga2.js';
import { tableProblem } from './helpers.js';

it('nsga2 gives the same result for the same seed, and a different search for another', () => {
  const run = (seed: number) => nsga2.search(tableProblem(4, 8, 6), { seed, budget: 1500, population: 32 });
  const a = run(7);
  const b = run(7);
  expect(b.count).toBe(a.count);
  expect(b.genomes).toEqual(a.genomes);
  expect(b.values).toEqual(a.values);
  expect(b.front).toEqual(a.front);
  expect(b.evaluations).toBe(a.evaluations);
  const c = run(8);
  expect(c.genomes).not.toEqual(a.genomes);
});
