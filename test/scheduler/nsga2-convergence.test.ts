import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/generators/rng.js';
import { hypervolume, paretoFront } from '../../src/scheduler/pareto.js';
import { nsga2 } from '../../src/scheduler/search/nsga2.js';
import { sumFront, tableProblem } from './helpers.js';

// 8 genes of 5 (time, energy[, memory]) options each, objectives summed: 390625 genomes and a
// front known exactly from per-gene Minkowski sums. 4000 evaluations are about 1% of the space.
describe('nsga2 approaches the true front within 4000 evaluations', () => {
  for (const [m, seeds, ratio] of [
    [2, [1, 2, 3], 0.99],
    [3, [1, 2], 0.95],
  ] as const) {
    for (const problemSeed of seeds) {
      it(`${m} objectives, problem ${problemSeed}: >= ${ratio * 100}% of the true hypervolume`, () => {
        const problem = tableProblem(problemSeed, 8, 5, m);
        const truth = sumFront(problem, 5);
        // Reference just beyond the true front's worst corner: the measure then depends on
        // the front itself, not on a large empty box.
        const reference = truth[0]!.map((_, k) => Math.max(...truth.map((p) => p[k]!)) + 1);
        const best = hypervolume(new Float64Array(truth.flat()), m, Int32Array.from(truth.keys()), reference);
        const r = nsga2.search(problem, { seed: 1, budget: 4000 });
        expect(r.evaluations).toBeLessThanOrEqual(4000);
        expect(problem.calls).toBe(r.evaluations);
        expect(r.exhaustive).toBe(false);
        expect(hypervolume(r.values, m, r.front, reference) / best).toBeGreaterThanOrEqual(ratio);
        // No point found can beat the true front.
        for (const i of r.front) {
          const p = Array.from(r.values.subarray(i * m, (i + 1) * m));
          expect(truth.some((q) => q.every((x, k) => x <= p[k]!))).toBe(true);
        }
      });
    }
  }
});

it('nsga2 beats random sampling of the same budget on 8 genes x 15 choices (2.6e9 genomes)', () => {
  const problem = tableProblem(3, 8, 15);
  const truth = sumFront(problem, 15);
  const reference = [Math.max(...truth.map((p) => p[0]!)) + 1, Math.max(...truth.map((p) => p[1]!)) + 1];
  const best = hypervolume(new Float64Array(truth.flat()), 2, Int32Array.from(truth.keys()), reference);
  const rng = new Rng(1);
  const sample = new Float64Array(2 * 4000);
  const genome = new Int32Array(8);
  const out = new Float64Array(2);
  for (let i = 0; i < 4000; i++) {
    for (let j = 0; j < 8; j++) genome[j] = rng.nextInt(15);
    problem.evaluate(genome, out);
    sample.set(out, 2 * i);
  }
  const random = hypervolume(sample, 2, paretoFront(sample, 2, 4000), reference) / best;
  const r = nsga2.search(problem, { seed: 1, budget: 4000 });
  const found = hypervolume(r.values, 2, r.front, reference) / best;
  expect(found).toBeGreaterThanOrEqual(0.95);
  expect(found - random).toBeGreaterThan(0.05);
});
