import { expect, it } from 'vitest';
import { exhaustive } from '../../src/scheduler/search/exhaustive.js';
import type { SearchProblem } from '../../src/scheduler/search/types.js';
import { bruteFront } from './helpers.js';

it('exhaustive evaluates every genome exactly once, in odometer order, gene 0 fastest', () => {
  const cardinality = new Int32Array([3, 1, 4, 2]);
  const seen: string[] = [];
  const problem: SearchProblem = {
    cardinality,
    objectives: 2,
    evaluate(genome, out) {
      seen.push(genome.join(','));
      out[0] = genome[0]! + 2 * genome[2]!;
      out[1] = 6 - genome[0]! - genome[2]! + genome[3]!;
      genome.fill(0); // scribbling on the buffer must not derail the enumeration
      return genome.length === 4;
    },
  };
  const r = exhaustive.search(problem, { seed: 1, budget: 1 });
  expect(r.count).toBe(24);
  expect(r.evaluations).toBe(24);
  expect(r.exhaustive).toBe(true);
  expect(r.strategy).toBe('exhaustive');
  expect(new Set(seen).size).toBe(24);
  expect(seen.slice(0, 4)).toEqual(['0,0,0,0', '1,0,0,0', '2,0,0,0', '0,0,1,0']);
  for (let i = 0; i < 24; i++) {
    const g = r.genomes.subarray(4 * i, 4 * i + 4);
    // Row i is i written in the mixed radix of the cardinalities, least significant gene first.
    expect(g[0]! + 3 * (g[2]! + 4 * g[3]!)).toBe(i);
    expect(g.join(',')).toBe(seen[i]);
    expect(Array.from(r.values.subarray(2 * i, 2 * i + 2))).toEqual([g[0]! + 2 * g[2]!, 6 - g[0]! - g[2]! + g[3]!]);
  }
  expect(Array.from(r.feasible)).toEqual(new Array<number>(24).fill(1));
  const all = Array.from({ length: 24 }, (_, i) => i);
  expect(Array.from(r.front).sort((a, b) => a - b)).toEqual(bruteFront(r.values, 2, all));
});

it('a space of one genome gives one row', () => {
  const r = exhaustive.search(
    {
      cardinality: new Int32Array([1, 1]),
      objectives: 3,
      evaluate: (_g, out) => {
        out.set([1, 2, 3]);
        return true;
      },
    },
    { seed: 1, budget: 10 },
  );
  expect([r.count, r.front.length, Array.from(r.values)]).toEqual([1, 1, [1, 2, 3]]);
});
