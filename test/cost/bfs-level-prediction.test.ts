// CostModel.predictBfsLevel: one BFS level priced from its frontier with the whole-search
// coefficients. Summed over a graph's typical search (its features' frontier profile, Beamer's
// rule replayed), the levels give back the whole-search prediction; bad arguments are refused.

import { describe, expect, it } from 'vitest';
import { CostModel } from '../../src/cost/model.js';
import { CsrMatrix } from '../../src/data/csr.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { generate } from '../../src/generators/index.js';
import { mixedSystem } from '../executor/executor-fixtures.js';

const system = mixedSystem();
const model = new CostModel(system);

describe('CostModel.predictBfsLevel', () => {
  it('levels of the typical search add up to the whole-search prediction on every device', () => {
    const graphs = [
      generate({ kind: 'kronecker', scale: 11, seed: 3 }),
      generate({ kind: 'grid', rows: 50, cols: 50, seed: 1 }),
      generate({ kind: 'kronecker', scale: 10, seed: 3, tail: 200 }),
      generate({ kind: 'erdos-renyi', n: 3000, m: 20000, directed: true, seed: 2 }),
    ];
    for (const g of graphs) {
      const gf = model.graphFeatures(g);
      for (const d of system.devices) {
        let sum = 0;
        let explored = 0;
        let visited = 0;
        let bottomUp = false;
        for (let l = 0; l + 1 < gf.frontier.length; l++) {
          const frontier = gf.frontier[l]! * g.rows;
          const frontierEdges = gf.frontierEdges[l]! * g.nnz;
          if (!bottomUp && frontierEdges > Math.max(0, g.nnz - explored - frontierEdges) / 15) bottomUp = true;
          else if (bottomUp && frontier < g.rows / 18) bottomUp = false;
          explored += frontierEdges;
          visited += frontier;
          sum += model.predictBfsLevel(d, g, { frontier, frontierEdges, unvisited: Math.max(0, g.rows - visited), bottomUp }, l === 0).seconds;
        }
        const whole = model.predict(d, { kind: 'bfs', source: 0 }, { graph: g }).seconds;
        // The profile runs to the deepest sampled search, the whole prediction to the mean depth.
        expect(sum / whole, `${d.name} on ${g.rows} vertices`).toBeGreaterThan(0.8);
        expect(sum / whole, `${d.name} on ${g.rows} vertices`).toBeLessThan(1.25);
      }
    }
  });

  it('a fat level costs more than a thin one, a call adds its fixed cost, and nothing is negative', () => {
    const g = generate({ kind: 'kronecker', scale: 11, seed: 3 });
    for (const d of system.devices) {
      const thin = model.predictBfsLevel(d, g, { frontier: 1, frontierEdges: 4, unvisited: g.rows - 1, bottomUp: false });
      const fat = model.predictBfsLevel(d, g, { frontier: 1000, frontierEdges: 30000, unvisited: g.rows / 2, bottomUp: false });
      const called = model.predictBfsLevel(d, g, { frontier: 1, frontierEdges: 4, unvisited: g.rows - 1, bottomUp: false }, true);
      expect(fat.seconds, d.name).toBeGreaterThan(thin.seconds);
      expect(called.seconds, d.name).toBeGreaterThan(thin.seconds);
      expect(thin.seconds, d.name).toBeGreaterThanOrEqual(0);
      expect(thin.joules, d.name).toBeGreaterThanOrEqual(0);
    }
  });

  it('refuses an unknown device and a graph that is not square', () => {
    const g = generate({ kind: 'grid', rows: 5, cols: 5 });
    const shape = { frontier: 1, frontierEdges: 2, unvisited: 10, bottomUp: false };
    expect(() => model.predictBfsLevel('tpu', g, shape)).toThrow(/CostModel.predictBfsLevel: no device "tpu"/);
    const wide = new CsrMatrix({ rows: 2, cols: 3, rowPtr: Int32Array.of(0, 1, 1), colIdx: Int32Array.of(2) });
    expect(() => model.predictBfsLevel('cpu', wide, shape)).toThrow(InvalidArgumentError);
    expect(() => model.predictBfsLevel('cpu', wide, shape)).toThrow(/graph must be a square CsrMatrix/);
  });
});
