import { describe, expect, it } from 'vitest';
import { erdosRenyiGraph } from '../../src/generators/erdos-renyi.js';
import { degrees, equalsTranspose, selfLoops } from './helpers.js';

describe('erdosRenyiGraph', () => {
  it('undirected sparse: exactly m distinct edges, symmetric, no self-loops', () => {
    const g = erdosRenyiGraph({ n: 2000, m: 10000, seed: 1 });
    expect(g.rows).toBe(2000);
    expect(g.nnz).toBe(20000);
    expect(g.symmetric).toBe(true);
    expect(g.sortedColumns).toBe(true);
    expect(selfLoops(g)).toBe(0);
    expect(equalsTranspose(g)).toBe(true);
  });

  it('directed and dense (selection sampling) variants have exactly m edges', () => {
    const d = erdosRenyiGraph({ n: 500, m: 3000, seed: 2, directed: true });
    expect(d.nnz).toBe(3000);
    expect(d.symmetric).toBe(false);
    expect(selfLoops(d)).toBe(0);
    expect(d.sortedColumns).toBe(true);
    const dense = erdosRenyiGraph({ n: 60, m: 1000, seed: 2 }); // 1000 of 1770 pairs
    expect(dense.nnz).toBe(2000);
    expect(equalsTranspose(dense)).toBe(true);
    expect(erdosRenyiGraph({ n: 30, m: 435, seed: 1 }).nnz).toBe(870); // the complete graph
    expect(erdosRenyiGraph({ n: 30, m: 870, seed: 1, directed: true }).nnz).toBe(870);
    expect(erdosRenyiGraph({ n: 5, m: 0 }).nnz).toBe(0);
  });

  it('spreads edges uniformly: counts in a block and degrees within a few sigma', () => {
    const n = 4000;
    const m = 20000;
    const g = erdosRenyiGraph({ n, m, seed: 11 });
    // Edges with both ends in the first half: hypergeometric, p = C(n/2, 2) / C(n, 2) ~ 1/4.
    let inside = 0;
    for (let i = 0; i < n / 2; i++) for (let p = g.rowStart(i); p < g.rowStart(i + 1); p++) if (g.colIdx[p]! < n / 2 && g.colIdx[p]! > i) inside++;
    const pIn = ((n / 2) * (n / 2 - 1)) / (n * (n - 1));
    expect(Math.abs(inside - m * pIn)).toBeLessThan(5 * Math.sqrt(m * pIn * (1 - pIn)));
    // Degrees ~ Binomial(n - 1, 2m / (n (n - 1))): variance close to the mean, no hubs.
    const deg = degrees(g);
    const mean = (2 * m) / n;
    const variance = deg.reduce((s, d) => s + (d - mean) ** 2, 0) / n;
    expect(variance / mean).toBeGreaterThan(0.85);
    expect(variance / mean).toBeLessThan(1.15);
    expect(Math.max(...deg)).toBeLessThan(mean + 8 * Math.sqrt(mean));
  });

  it('weights are symmetric and leave the structure alone', () => {
    const w = erdosRenyiGraph({ n: 300, m: 900, seed: 4, weights: 'f32' });
    expect(w.colIdx).toEqual(erdosRenyiGraph({ n: 300, m: 900, seed: 4 }).colIdx);
    expect(equalsTranspose(w)).toBe(true);
  });

  it('refuses m above the number of pairs', () => {
    expect(() => erdosRenyiGraph({ n: 10, m: 46 })).toThrow(/^erdosRenyiGraph: m = 46 is more than the 45 unordered pairs/);
    expect(() => erdosRenyiGraph({ n: 10, m: 91, directed: true })).toThrow(/90 ordered pairs/);
  });
});
