// pagerankMatrix is the column-stochastic transpose; dangling vertices leave their columns empty.

import { describe, expect, it } from 'vitest';
import { erdosRenyiGraph } from '../../src/generators/erdos-renyi.js';
import { pagerankMatrix } from '../../src/workloads/transforms.js';
import { randomCsr } from '../data/helpers.js';
import { csr, dense, entries } from './helpers.js';
import { densePagerank, expectClose, expectSortedRows } from './transform-helpers.js';

describe('pagerankMatrix', () => {
  it('builds P for a directed graph with a dangling vertex (hand-checked)', () => {
    // 0 -> 1, 0 -> 2, 1 -> 2, 1 -> 3, 2 -> 0; vertex 3 has no out-edges.
    const g = csr(4, [[1, 2], [2, 3], [0], []]);
    const p = pagerankMatrix(g, 'f64');
    expectSortedRows(p);
    expect(dense(p)).toEqual([
      [0, 0, 1, 0],
      [1 / 2, 0, 0, 0],
      [1 / 2, 1 / 2, 0, 0],
      [0, 1 / 2, 0, 0],
    ]);
    expect(entries(p).some(([, j]) => j === 3)).toBe(false); // the dangling vertex's column is empty
  });

  it('is symmetric-structured for a path and splits a star centre evenly', () => {
    expect(dense(pagerankMatrix(csr(3, [[1], [0, 2], [1]]), 'f64'))).toEqual([
      [0, 1 / 2, 0],
      [1, 0, 1],
      [0, 1 / 2, 0],
    ]);
    const star = pagerankMatrix(csr(4, [[1, 2, 3], [0], [0], [0]]));
    expect(star.values).toBeInstanceOf(Float32Array);
    expect(dense(star)).toEqual([
      [0, 1, 1, 1],
      [Math.fround(1 / 3), 0, 0, 0],
      [Math.fround(1 / 3), 0, 0, 0],
      [Math.fround(1 / 3), 0, 0, 0],
    ]);
  });

  it('ignores values, keeps a self-loop as an out-edge and counts a duplicated edge twice', () => {
    const g = csr(
      2,
      [
        [
          [0, 5],
          [1, 7],
        ],
        [
          [0, 2],
          [0, 2],
        ],
      ],
      'f64',
    );
    expect(dense(pagerankMatrix(g, 'f64'))).toEqual([
      [1 / 2, 1],
      [1 / 2, 0],
    ]);
    const messy = randomCsr(14, 14, 8, { values: 'f32', messy: true, density: 0.3 });
    const p = pagerankMatrix(messy, 'f64');
    expectSortedRows(p);
    expectClose(dense(p), densePagerank(messy), 1e-15);
  });

  it('has columns summing to 1 exactly where the vertex has out-edges, on a generated graph', () => {
    const g = erdosRenyiGraph({ n: 400, m: 700, seed: 5, directed: true });
    for (const precision of ['f32', 'f64'] as const) {
      const p = pagerankMatrix(g, precision);
      const sums = new Float64Array(g.rows);
      for (const [, j, v] of entries(p)) sums[j]! += v;
      let dangling = 0;
      for (let j = 0; j < g.rows; j++) {
        if (g.rowLength(j) === 0) {
          expect(sums[j]).toBe(0);
          dangling++;
        } else expect(Math.abs(sums[j]! - 1)).toBeLessThan(precision === 'f32' ? 1e-6 : 1e-14);
      }
      expect(dangling).toBeGreaterThan(0);
      expect(p.nnz).toBe(g.nnz);
    }
  });
});
