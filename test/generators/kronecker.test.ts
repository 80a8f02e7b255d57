import { describe, expect, it } from 'vitest';
import { symmetrize } from '../../src/data/convert.js';
import { kroneckerGraph } from '../../src/generators/kronecker.js';
import { degrees, equalsTranspose, selfLoops } from './helpers.js';

describe('kroneckerGraph', () => {
  const g = kroneckerGraph({ scale: 12, seed: 1 });

  it('is an undirected pattern graph on 2^scale vertices: symmetric, loop-free, no duplicates', () => {
    expect(g.rows).toBe(4096);
    expect(g.cols).toBe(4096);
    expect(g.values).toBeUndefined();
    expect(g.symmetric).toBe(true);
    expect(g.sortedColumns).toBe(true); // strictly increasing columns: no duplicate edges
    expect(selfLoops(g)).toBe(0);
    expect(equalsTranspose(g)).toBe(true);
    // At most 2 * edgeFactor * n entries; duplicates of the hubs' edges remove a fair share.
    expect(g.nnz).toBeLessThanOrEqual(2 * 16 * 4096);
    expect(g.nnz).toBeGreaterThan(16 * 4096);
  });

  it('has a skewed, power-law-like degree distribution with hubs spread over the ids', () => {
    const deg = degrees(g);
    const mean = g.nnz / g.rows;
    const max = Math.max(...deg);
    expect(max).toBeGreaterThan(20 * mean);
    const isolated = deg.filter((d) => d === 0).length;
    expect(isolated).toBeGreaterThan(0.05 * g.rows); // R-MAT leaves many vertices without edges
    // The random relabelling moves the hub away from id 0 (where R-MAT puts it).
    const hubs = deg
      .map((d, i) => [d, i] as const)
      .sort((a, b) => b[0] - a[0])
      .slice(0, 8)
      .map(([, i]) => i);
    expect(hubs.filter((i) => i < 64).length).toBeLessThan(4);
  });

  it('directed: keeps one direction per edge and symmetrizes into the undirected graph', () => {
    const d = kroneckerGraph({ scale: 10, seed: 7, directed: true });
    expect(d.symmetric).toBe(false);
    expect(d.sortedColumns).toBe(true);
    expect(selfLoops(d)).toBe(0);
    expect(equalsTranspose(d)).toBe(false);
    const u = kroneckerGraph({ scale: 10, seed: 7 });
    const s = symmetrize(d);
    expect(s.colIdx).toEqual(u.colIdx);
    expect(s.rowPtr).toEqual(u.rowPtr);
  });

  it('honours edgeFactor and the initiator', () => {
    const sparse = kroneckerGraph({ scale: 10, edgeFactor: 2, seed: 1 });
    expect(sparse.nnz).toBeLessThanOrEqual(2 * 2 * 1024);
    // a = b = c = d = 1/4 is Erdős–Rényi-like: no hubs.
    const flat = kroneckerGraph({ scale: 10, a: 0.25, b: 0.25, c: 0.25, seed: 1 });
    expect(Math.max(...degrees(flat))).toBeLessThan(3 * (flat.nnz / flat.rows));
  });

  it('weights: symmetric values in (0, 1] on the same structure', () => {
    const w = kroneckerGraph({ scale: 9, seed: 3, weights: 'f64' });
    const p = kroneckerGraph({ scale: 9, seed: 3 });
    expect(w.colIdx).toEqual(p.colIdx);
    expect(w.values).toBeInstanceOf(Float64Array);
    expect(equalsTranspose(w)).toBe(true);
    const values = Array.from(w.values!);
    expect(Math.min(...values)).toBeGreaterThan(0);
    expect(Math.max(...values)).toBeLessThanOrEqual(1);
    const f = kroneckerGraph({ scale: 9, seed: 3, weights: 'f32' });
    expect(f.values).toBeInstanceOf(Float32Array);
    expect(equalsTranspose(f)).toBe(true);
  });

  it('handles the smallest scales', () => {
    expect(kroneckerGraph({ scale: 0 }).nnz).toBe(0); // one vertex: every edge is a self-loop
    const two = kroneckerGraph({ scale: 1, seed: 2 });
    expect(two.rows).toBe(2);
    expect(two.nnz).toBe(2);
  });
});
