import { describe, expect, it } from 'vitest';
import { paretoFront } from '../../src/scheduler/pareto.js';
import { STRATEGIES } from '../../src/scheduler/search/index.js';
import { tableProblem } from './helpers.js';

// One suite for every registered strategy: what a SearchResult promises, on spaces small enough
// for exhaustive to take (the 5 x 5 x 6 x 6 x 4 = 3600-genome space is also below nsga2's budget
// 5000, where it enumerates, and above its budget 1000, where it searches).
describe.each(
  [...STRATEGIES.values()].flatMap(
    (s) =>
      [
        [s.name, s, 5000],
        [s.name, s, 1000],
      ] as const,
  ),
)('%s (budget %s)', (_name, strategy, budget) => {
  for (const m of [2, 3] as const) {
    it(`keeps its promises with ${m} objectives`, () => {
      const problem = tableProblem(9, 5, 6, m);
      (problem as { cardinality: Int32Array }).cardinality = new Int32Array([5, 5, 6, 6, 4]);
      const r = strategy.search(problem, { seed: 2, budget, population: 16 });
      expect(r.strategy).toBe(strategy.name);
      expect([r.genes, r.objectives]).toEqual([5, m]);
      expect(r.genomes.length).toBe(r.count * 5);
      expect(r.values.length).toBe(r.count * m);
      expect(r.feasible.length).toBe(r.count);
      expect(r.evaluations).toBe(problem.calls);
      expect(r.evaluations).toBe(r.count);
      expect(r.exhaustive).toBe(r.count === 3600);
      if (strategy.name === 'exhaustive' || budget >= 3600) expect(r.count).toBe(3600);
      else expect(r.count).toBeLessThanOrEqual(budget);
      // Unique genomes, in range, whose stored values are what evaluate gives.
      const keys = new Set<string>();
      const out = new Float64Array(m);
      const wrong: number[] = []; // rows out of range or with values other than evaluate's
      for (let i = 0; i < r.count; i++) {
        const g = r.genomes.slice(5 * i, 5 * i + 5);
        if (g.some((x, j) => !(x >= 0 && x < problem.cardinality[j]!))) wrong.push(i);
        keys.add(g.join());
        problem.evaluate(g, out);
        if (out.some((x, k) => x !== r.values[m * i + k])) wrong.push(i);
      }
      expect(wrong).toEqual([]);
      expect(keys.size).toBe(r.count);
      expect(r.front).toEqual(paretoFront(r.values, m, r.count, (i) => r.feasible[i] === 1));
    });
  }
});
