// Native BFS returns exact depths and a valid BFS tree in every direction mode.

import { describe, expect, it } from 'vitest';
import { cooToCsr } from '../../src/data/coo.js';
import { CsrMatrix } from '../../src/data/csr.js';
import { symmetrize } from '../../src/data/convert.js';
import { BEAMER_ALPHA, bfs } from '../../src/kernels/bfs.js';
import { kroneckerGraph } from '../../src/generators/index.js';
import { bfsReference, checkBfsParents } from '../../src/kernels/reference.js';
import { firstDifference } from '../support/compare.js';
import { skewedMatrix } from '../support/random.js';

const DIRECTIONS = ['auto', 'top-down', 'bottom-up'] as const;

describe('bfs', () => {
  const directed = skewedMatrix(20_000, 20_000, 90_000, 5, 'pattern');
  const undirected = symmetrize(directed);

  for (const [name, g] of [
    ['directed', directed],
    ['undirected', undirected],
  ] as const) {
    for (const direction of DIRECTIONS) {
      it(`${name} graph, ${direction}: exact depths, valid parents, consistent profile`, async () => {
        for (const source of [0, 1, 777, 19_999]) {
          const r = await bfs(g, source, { direction, parents: true });
          expect(firstDifference(r.depth, bfsReference(g, source))).toBe(-1);
          expect(checkBfsParents(g, source, r.depth, r.parent!)).toBe(-1);
          let reached = 0;
          let maxDepth = -1;
          for (const d of r.depth)
            if (d >= 0) {
              reached++;
              maxDepth = Math.max(maxDepth, d);
            }
          expect(r.reached).toBe(reached);
          expect(r.frontier.length).toBe(maxDepth + 1);
          expect(r.bottomUp.length).toBe(maxDepth);
          if (direction === 'top-down') expect([...r.bottomUp].every((b) => b === 0)).toBe(true);
          if (direction === 'bottom-up') expect([...r.bottomUp].every((b) => b === 1)).toBe(true);
        }
      });
    }
  }

  it('switches direction on a power-law graph in auto mode', async () => {
    const r = await bfs(undirected, 0);
    expect(r.bottomUp.includes(1) || r.frontier.length <= 2).toBe(true);
  });

  it('stays bottom-up through the middle of a Kronecker search (the waste rule prices the frontier by its own edges)', async () => {
    // At the switch a power-law frontier is hubs far above the average degree: priced at the
    // average, the first bottom-up step looked wasteful and the search fell back to top-down.
    const g = kroneckerGraph({ scale: 14, edgeFactor: 16, seed: 1 });
    let source = 0;
    while (g.rowLength(source) === 0) source++;
    const r = await bfs(g, source);
    const bottomUp = [...r.bottomUp];
    const first = bottomUp.indexOf(1);
    expect(first).toBeGreaterThanOrEqual(0);
    expect(bottomUp[first + 1]).toBe(1);
    const ref = bfsReference(g, source);
    expect(firstDifference(r.depth, ref)).toBe(-1);
  });

  it('stays bottom-up after a first step that read far more than its frontier had, when what it found has more still', async () => {
    // The waste rule compares a bottom-up step with top-down's reads for this step and the next:
    // here the frontier grows from 24 to 1,037 vertices, and priced against the 24 alone the
    // step looked wasteful, so the search fell back to top-down and read three times the edges.
    const g = kroneckerGraph({ scale: 12, edgeFactor: 4, seed: 1 });
    const r = await bfs(g, 16);
    const bottomUp = [...r.bottomUp];
    const first = bottomUp.indexOf(1);
    expect(first).toBeGreaterThanOrEqual(0);
    expect(bottomUp[first + 1]).toBe(1);
    expect(firstDifference(r.depth, bfsReference(g, 16))).toBe(-1);
  });

  it('takes no bottom-up step on a mesh, where a sample of the step shows it would read nearly every edge left and find little', async () => {
    // A 60 x 60 grid with every vertex joined to those within two steps (24 neighbours, like
    // an FEM mesh): mid-search Beamer's rule asks for a bottom-up step, which scanned most
    // unvisited vertices' edges for few finds before the waste rule undid it.
    const side = 60;
    const rows: number[] = [];
    const cols: number[] = [];
    for (let y = 0; y < side; y++) {
      for (let x = 0; x < side; x++) {
        for (let dy = -2; dy <= 2; dy++) {
          for (let dx = -2; dx <= 2; dx++) {
            const yy = y + dy;
            const xx = x + dx;
            if ((dx !== 0 || dy !== 0) && yy >= 0 && yy < side && xx >= 0 && xx < side) {
              rows.push(y * side + x);
              cols.push(yy * side + xx);
            }
          }
        }
      }
    }
    const n = side * side;
    const g = cooToCsr({ rows: n, cols: n, rowIdx: Int32Array.from(rows), colIdx: Int32Array.from(cols) }, { duplicates: 'first', symmetric: true });
    // Beamer's alpha: with the CPU's lower default for small graphs the rule first asks in the
    // search's tail, where the few vertices left find parents at once and a step is not waste.
    const r = await bfs(g, 0, { alpha: BEAMER_ALPHA });
    expect([...r.bottomUp].every((b) => b === 0)).toBe(true);
    expect(firstDifference(r.depth, bfsReference(g, 0))).toBe(-1);
  });

  it('splits the edge lists of hub vertices across threads (top-down)', async () => {
    // Source 0 reaches three hubs (1..3) of 30,000 leaves each plus a few light vertices.
    const n = 90_010;
    const rows: number[] = [];
    const cols: number[] = [];
    const edge = (u: number, v: number) => {
      rows.push(u, v);
      cols.push(v, u);
    };
    for (let h = 1; h <= 3; h++) {
      edge(0, h);
      for (let i = 0; i < 30_000; i++) edge(h, 10 + (h - 1) * 30_000 + i);
    }
    for (let v = 4; v < 10; v++) edge(0, v);
    const g = cooToCsr({ rows: n, cols: n, rowIdx: Int32Array.from(rows), colIdx: Int32Array.from(cols) }, { duplicates: 'first', symmetric: true });
    for (const direction of DIRECTIONS) {
      const r = await bfs(g, 0, { direction, parents: true });
      expect(firstDifference(r.depth, bfsReference(g, 0))).toBe(-1);
      expect(checkBfsParents(g, 0, r.depth, r.parent!)).toBe(-1);
      expect([...r.frontier]).toEqual([1, 9, 90_000]);
    }
  });

  it('handles a path (long diameter) and an isolated source', async () => {
    const n = 5000;
    const rowPtr = new Int32Array(n + 1);
    const colIdx = new Int32Array(2 * (n - 1));
    let p = 0;
    for (let v = 0; v < n; v++) {
      if (v > 0) colIdx[p++] = v - 1;
      if (v < n - 1) colIdx[p++] = v + 1;
      rowPtr[v + 1] = p;
    }
    const path = new CsrMatrix({ rows: n, cols: n, rowPtr, colIdx, symmetric: true });
    for (const direction of DIRECTIONS) {
      const r = await bfs(path, 0, { direction });
      expect(r.depth[n - 1]).toBe(n - 1);
      expect(r.frontier.length).toBe(n);
    }
    const lonely = new CsrMatrix({ rows: 3, cols: 3, rowPtr: Int32Array.of(0, 0, 1, 2), colIdx: Int32Array.of(2, 1) });
    const r = await bfs(lonely, 0, { parents: true });
    expect([...r.depth]).toEqual([0, -1, -1]);
    expect([...r.parent!]).toEqual([0, -1, -1]);
  });
});

describe('bfs output buffers', () => {
  it('writes into caller-provided arrays and rejects wrong ones', async () => {
    const g = skewedMatrix(1000, 1000, 5000, 8, 'pattern');
    const depth = new Int32Array(1000).fill(77);
    const parent = new Int32Array(1000);
    const r = await bfs(g, 2, { parents: true, out: { depth, parent } });
    expect(r.depth).toBe(depth);
    expect(r.parent).toBe(parent);
    expect(firstDifference(depth, bfsReference(g, 2))).toBe(-1);
    expect(checkBfsParents(g, 2, depth, parent)).toBe(-1);
    await expect(bfs(g, 2, { out: { depth: new Int32Array(999) } })).rejects.toThrow(/out.depth must be an Int32Array of length 1000/);
    await expect(bfs(g, 2, { parents: true, out: { depth, parent: depth } })).rejects.toThrow(/must not share memory/);
  });
});
