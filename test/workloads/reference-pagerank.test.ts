// referenceValues of pagerank: four power iterations that keep the total rank at 1 when no
// vertex is dangling, equal to the iteration written out here; dangling vertices leak rank.

import { describe, expect, it } from 'vitest';
import type { CsrMatrix } from '../../src/data/csr.js';
import type { DenseMatrix } from '../../src/data/dense.js';
import { gridGraph } from '../../src/generators/grid.js';
import { bindWorkload } from '../../src/workloads/bind.js';
import { workload } from '../../src/workloads/library.js';
import { referenceValues } from '../../src/workloads/reference.js';
import { csr } from './helpers.js';

function pagerank(g: CsrMatrix): Float64Array {
  const b = bindWorkload(workload('pagerank'), g);
  return (referenceValues(b)[b.outputs[0]!] as DenseMatrix).data as Float64Array;
}

/** x <- d * sum over edges j -> i of x_j / outdeg(j) + (1 - d) / n, from x = 1/n, `t` times. */
function powerIteration(g: CsrMatrix, t: number, d = 0.85): number[] {
  const n = g.rows;
  let x = new Array<number>(n).fill(1 / n);
  for (let step = 0; step < t; step++) {
    const next = new Array<number>(n).fill((1 - d) / n);
    for (let j = 0; j < n; j++) {
      for (let p = g.rowStart(j); p < g.rowStart(j + 1); p++) next[g.colIdx[p]!]! += (d * x[j]!) / g.rowLength(j);
    }
    x = next;
  }
  return x;
}

const sum = (x: ArrayLike<number>): number => Array.from(x).reduce((s, v) => s + v, 0);

describe('referenceValues: pagerank', () => {
  const grid = gridGraph({ rows: 7, cols: 9 }); // every vertex has 2 to 4 neighbours

  it('keeps the total rank at 1 on a graph without dangling vertices', () => {
    const x = pagerank(grid);
    expect(x).toBeInstanceOf(Float64Array);
    expect(x.length).toBe(63);
    expect(Math.abs(sum(x) - 1)).toBeLessThan(1e-12);
    expect(Math.min(...x)).toBeGreaterThan(0);
  });

  it('equals four steps of the power iteration written out', () => {
    const x = pagerank(grid);
    const e = powerIteration(grid, 4);
    e.forEach((v, i) => expect(x[i]).toBeCloseTo(v, 14));
    // Not the uniform start: corners (degree 2) end up below the centre (degree 4).
    expect(x[0]!).toBeLessThan(x[4 * 9 + 4]!);
  });

  it('loses the rank of dangling vertices (their columns of P are empty)', () => {
    const path = csr(3, [[1], [2], []]); // 0 -> 1 -> 2, vertex 2 dangling
    const x = pagerank(path);
    const e = powerIteration(path, 4);
    e.forEach((v, i) => expect(x[i]).toBeCloseTo(v, 14));
    expect(sum(x)).toBeLessThan(0.9);
  });
});
