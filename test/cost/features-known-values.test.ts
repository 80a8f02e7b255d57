// matrixFeatures and graphFeatures give the values worked out by hand on small matrices.

import { describe, expect, it } from 'vitest';
import { graphFeatures, matrixFeatures } from '../../src/cost/features.js';
import { fromRows, giniByDefinition, pathGraph, starGraph } from './feature-helpers.js';

describe('matrixFeatures on hand-built matrices', () => {
  it('a diagonal is perfectly regular and local', () => {
    const f = matrixFeatures(fromRows(Array.from({ length: 100 }, (_, i) => [i])));
    expect(f).toMatchObject({ rows: 100, cols: 100, nnz: 100, density: 0.01, bandwidth: 0, meanDistance: 0, sameLine: 0, samePage: 0 });
    expect(f.rowLength).toMatchObject({ mean: 1, cv: 0, max: 1, gini: 0, empty: 0 });
    expect(f.rowLength.histogram[1]).toBe(100);
    expect(f.columnGaps.every((c) => c === 0)).toBe(true);
    expect(f.powerLaw).toEqual({ state: 'not-fitted', reason: 'every non-empty row has the same length' });
    expect(f.coverage).toEqual({ state: 'exact' });
  });

  it('a star has one long row: bandwidth n - 1, Gini by definition', () => {
    const n = 64;
    const f = matrixFeatures(starGraph(n));
    expect(f.bandwidth).toBe(n - 1);
    expect(f.rowLength.max).toBe(n - 1);
    expect(f.rowLength.gini).toBeCloseTo(giniByDefinition([n - 1, ...Array<number>(n - 1).fill(1)]), 14);
    // Row 0 holds 1..63: 62 gaps of 1; lines hold 16 columns, so 62 - 3 boundary crossings share one.
    expect(f.columnGaps[1]).toBe(n - 2);
    expect(f.sameLine).toBe((n - 2 - 3) / (n - 2));
    expect(f.samePage).toBe(1);
  });

  it('counts empty rows, log2 buckets and gaps', () => {
    const f = matrixFeatures(fromRows([[], [0, 1, 2, 40], [], [5, 5], [1000, 3000]], 4000));
    expect(f.rowLength.empty).toBe(2);
    expect(Array.from(f.rowLength.histogram.slice(0, 4))).toEqual([2, 0, 2, 1]);
    // Gaps: 1, 1, 38 (bucket 6: [32, 64)), 0 (duplicate), 2000 (bucket 11: [1024, 2048)).
    expect(f.columnGaps[0]).toBe(1);
    expect(f.columnGaps[1]).toBe(2);
    expect(f.columnGaps[6]).toBe(1);
    expect(f.columnGaps[11]).toBe(1);
    expect(f.bandwidth).toBe(2996);
    expect(f.meanDistance).toBeCloseTo((1 + 0 + 1 + 39 + 2 + 2 + 996 + 2996) / 8, 12);
    expect(f.sameLine).toBe(3 / 5);
  });

  it('an empty matrix is all zeros', () => {
    const f = matrixFeatures(fromRows([], 0));
    expect(f).toMatchObject({ rows: 0, cols: 0, nnz: 0, density: 0, bandwidth: 0, meanDistance: 0, sameLine: 0 });
    expect(f.rowLength).toMatchObject({ mean: 0, cv: 0, max: 0, gini: 0, empty: 0 });
  });
});

describe('graphFeatures on hand-built graphs', () => {
  it('a path graph has diameter n - 1 and one vertex per level', () => {
    const n = 200;
    const f = graphFeatures(pathGraph(n));
    expect(f.diameterEstimate).toBe(n - 1);
    expect(f.sources.length).toBe(4);
    // The deepest sample starts nearest an end: source s reaches the far end in n - 1 - s levels.
    const deepest = Math.max(...Array.from(f.sources, (s) => Math.max(s, n - 1 - s)));
    expect(f.levels).toBe(deepest + 1);
    expect(f.frontier[0]).toBe(1 / n);
    expect(f.reached).toBe(1);
    expect(f.frontier.reduce((s, x) => s + x, 0)).toBeCloseTo(1, 12);
    expect(f.frontierEdges.reduce((s, x) => s + x, 0)).toBeCloseTo(1, 12);
  });

  it('a star is three levels deep from a leaf', () => {
    const f = graphFeatures(starGraph(33));
    expect(f.diameterEstimate).toBe(2);
    expect(f.levels).toBe(3);
    expect(f.frontier[1]).toBe(1 / 33);
    expect(f.frontierEdges[1]).toBe(32 / 64);
  });

  it('one vertex, and a graph without edges, have no sources', () => {
    for (const g of [fromRows([[]]), fromRows([[], [], []]), fromRows([], 0)]) {
      const f = graphFeatures(g);
      expect(f).toMatchObject({ levels: 0, diameterEstimate: 0, reached: 0 });
      expect(f.sources.length).toBe(0);
      expect(f.frontier.length).toBe(0);
    }
    const loop = graphFeatures(fromRows([[0]]));
    expect(loop).toMatchObject({ levels: 1, diameterEstimate: 0, reached: 1 });
  });
});
