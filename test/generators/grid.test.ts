import { describe, expect, it } from 'vitest';
import { gridGraph } from '../../src/generators/grid.js';
import { bfsDepth, degrees, equalsTranspose, selfLoops } from './helpers.js';

describe('gridGraph', () => {
  it('without deletions is the full 4-neighbour lattice', () => {
    const g = gridGraph({ rows: 20, cols: 30 });
    expect(g.rows).toBe(600);
    expect(g.nnz).toBe(2 * (20 * 29 + 19 * 30));
    expect(g.symmetric).toBe(true);
    expect(g.sortedColumns).toBe(true);
    expect(equalsTranspose(g)).toBe(true);
    // Vertex (r, c) = r * cols + c: an inner vertex sees up, left, right, down.
    const v = 5 * 30 + 7;
    expect(Array.from(g.colIdx.subarray(g.rowStart(v), g.rowStart(v + 1)))).toEqual([v - 30, v - 1, v + 1, v + 30]);
    expect(bfsDepth(g, 0).depth).toBe(20 + 30 - 2);
  });

  it('with deletions: degrees at most 4, the deleted share near deleteFraction, a long diameter', () => {
    const rows = 120;
    const cols = 150;
    const g = gridGraph({ rows, cols, deleteFraction: 0.15, seed: 3 });
    const edges = rows * (cols - 1) + (rows - 1) * cols;
    expect(Math.max(...degrees(g))).toBeLessThanOrEqual(4);
    expect(selfLoops(g)).toBe(0);
    expect(equalsTranspose(g)).toBe(true);
    const deleted = edges - g.nnz / 2;
    expect(Math.abs(deleted - 0.15 * edges)).toBeLessThan(5 * Math.sqrt(edges * 0.15 * 0.85));
    // Road-like: BFS from the middle of the main component still needs more than the half-perimeter.
    const { depth, reached } = bfsDepth(g, (rows / 2) * cols + cols / 2);
    expect(reached).toBeGreaterThan(0.8 * rows * cols);
    expect(depth).toBeGreaterThanOrEqual((rows + cols) / 2);
  });

  it('handles degenerate shapes and deleteFraction 1', () => {
    const path = gridGraph({ rows: 1, cols: 50 });
    expect(path.nnz).toBe(98);
    expect(bfsDepth(path, 0).depth).toBe(49);
    expect(gridGraph({ rows: 1, cols: 1 }).nnz).toBe(0);
    expect(gridGraph({ rows: 10, cols: 10, deleteFraction: 1 }).nnz).toBe(0);
  });

  it('weights are symmetric', () => {
    const w = gridGraph({ rows: 10, cols: 12, deleteFraction: 0.1, seed: 1, weights: 'f64' });
    expect(w.values).toBeInstanceOf(Float64Array);
    expect(equalsTranspose(w)).toBe(true);
  });
});
