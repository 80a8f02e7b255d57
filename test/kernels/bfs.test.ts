// Native BFS returns exact depths and a valid BFS tree in every direction mode.

import { describe, expect, it } from 'vitest';
import { CsrMatrix } from '../../src/data/csr.js';
import { symmetrize } from '../../src/data/convert.js';
import { bfs } from '../../src/kernels/bfs.js';
import { bfsReference, checkBfsParents } from '../../src/kernels/reference.js';
import { firstDifference } from '../support/compare.js';
import { skewedMatrix } from '../support/random.js';

const DIRECTIONS = ['auto', 'top-down', 'bottom-up'] as const;

describe('bfs', () => {
  const directed = skewedMatrix(20_000, 20_000, 90_000, 5, 'pattern');
  const undirected = symmetrize(directed);

  for (const [name, g] of [['directed', directed], ['undirected', undirected]] as const) {
    for (const direction of DIRECTIONS) {
      it(`${name} graph, ${direction}: exact depths, valid parents, consistent profile`, async () => {
        for (const source of [0, 1, 777, 19_999]) {
          const r = await bfs(g, source, { direction, parents: true });
          expect(firstDifference(r.depth, bfsReference(g, source))).toBe(-1);
          expect(checkBfsParents(g, source, r.depth, r.parent!)).toBe(-1);
          let reached = 0;
          let maxDepth = -1;
          for (const d of r.depth) if (d >= 0) { reached++; maxDepth = Math.max(maxDepth, d); }
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
