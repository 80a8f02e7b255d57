import { describe, expect, it } from 'vitest';
import { STRATEGIES } from '../../src/scheduler/search/index.js';
import type { SearchProblem } from '../../src/scheduler/search/types.js';

/** Genomes whose genes sum above `limit` are infeasible; the unconstrained optimum (all high genes) is among them. */
function constrained(genes: number, options: number, limit: number): SearchProblem {
  return {
    cardinality: new Int32Array(genes).fill(options),
    objectives: 2,
    evaluate(genome, out) {
      let sum = 0;
      let odd = 0;
      for (let j = 0; j < genome.length; j++) {
        sum += genome[j]!;
        odd += genome[j]! & 1;
      }
      if (sum > limit) return false; // leaves out as NaN
      out[0] = -sum;
      out[1] = odd;
      return true;
    },
  };
}

describe('infeasible genomes never reach the front and rank after feasible ones', () => {
  for (const [name, strategy] of STRATEGIES) {
    it(name, () => {
      const problem = constrained(7, 5, 12); // 78125 genomes
      const r = strategy.search(problem, { seed: 3, budget: 3000, population: 32 });
      let infeasible = 0;
      let wrong = 0; // rows whose flag or values disagree with the constraint (one expect, not one per row)
      for (let i = 0; i < r.count; i++) {
        let sum = 0;
        for (let j = 0; j < 7; j++) sum += r.genomes[7 * i + j]!;
        if (r.feasible[i] !== (sum > 12 ? 0 : 1)) wrong++;
        if (sum > 12) {
          infeasible++;
          if (!Number.isNaN(r.values[2 * i]!)) wrong++;
        }
      }
      expect(wrong).toBe(0);
      expect(infeasible).toBeGreaterThan(0);
      expect(r.front.length).toBeGreaterThan(0);
      expect(Array.from(r.front).every((i) => r.feasible[i] === 1)).toBe(true);
      // The feasible optimum of objective 0 is sum = 12 (value -12).
      expect(r.values[2 * r.front[0]!]).toBe(-12);
    });

    it(`${name}: a problem with no feasible genome gives an empty front`, () => {
      const problem: SearchProblem = { cardinality: new Int32Array([4, 4, 4]), objectives: 2, evaluate: () => false };
      const r = strategy.search(problem, { seed: 1, budget: 100, population: 8 });
      expect(r.count).toBeGreaterThan(0);
      expect(r.front.length).toBe(0);
      expect(Array.from(r.feasible).every((f) => f === 0)).toBe(true);
    });
  }
});
