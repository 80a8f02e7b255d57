import { describe, expect, it } from 'vitest';
import { STRATEGIES } from '../../src/scheduler/search/index.js';
import { tableProblem } from './helpers.js';

describe('search stops on an aborted signal', () => {
  for (const [name, strategy] of STRATEGIES) {
    it(`${name}: refuses to start with the signal's reason`, () => {
      const problem = tableProblem(1, 6, 6);
      const controller = new AbortController();
      const reason = new Error('deadline');
      controller.abort(reason);
      expect(() => strategy.search(problem, { seed: 1, budget: 1000, signal: controller.signal })).toThrow(reason);
      expect(problem.calls).toBe(0);
    });

    it(`${name}: stops soon after an abort during the search, with an AbortError by default`, () => {
      const problem = tableProblem(1, 6, 6); // 46656 genomes
      const controller = new AbortController();
      const evaluate = problem.evaluate.bind(problem);
      problem.evaluate = (g, out) => {
        if (problem.calls === 500) controller.abort();
        return evaluate(g, out);
      };
      let error: unknown;
      try {
        strategy.search(problem, { seed: 1, budget: 20000, population: 32, signal: controller.signal });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(DOMException);
      expect((error as DOMException).name).toBe('AbortError');
      // Checked every 4096 evaluations (exhaustive) or once per generation (nsga2: 32 children).
      expect(problem.calls).toBeLessThanOrEqual(name === 'exhaustive' ? 4097 : 501 + 32);
      expect(problem.calls).toBeGreaterThan(500);
    });
  }
});
