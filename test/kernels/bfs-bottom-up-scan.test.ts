// The bottom-up step's scan of a vertex's in-edges (native/src/kernels/bfs_scan.h) reads the first
// few edges one at a time and the rest 16 at a time: a parent at any position of a long row is
// found, the first of several is taken, and an index outside the graph met before any parent is
// reported, whichever part of the scan meets it.

import { describe, expect, it } from 'vitest';
import { CsrMatrix } from '../../src/data/csr.js';
import { bfs } from '../../src/kernels/bfs.js';
import { bfsReference, checkBfsParents } from '../../src/kernels/reference.js';
import { firstDifference } from '../support/compare.js';

/**
 * Vertex 0 is the source and reaches the hubs 1..H directly; fillers H+1..F are reached only
 * through vertex F+1, at depth 3. Each target t (after them) has `rowLength` in-edges, all from
 * fillers except those at `hubAt(t)`, which come from hubs: a bottom-up step from the hubs' level
 * must find a parent at exactly that position of the row.
 */
function layered(rowLength: number, hubPositions: readonly (readonly number[])[]): { g: CsrMatrix; targets: number[] } {
  const hubs = 8;
  const fillers = 64;
  const firstFiller = 1 + hubs;
  const bridge = firstFiller + fillers;
  const firstTarget = bridge + 1;
  const n = firstTarget + hubPositions.length;
  // Adjacency lists in the order they are stored: the targets' rows exactly as designed.
  const adjacency: number[][] = Array.from({ length: n }, () => []);
  const edge = (a: number, b: number): void => {
    adjacency[a]!.push(b);
    adjacency[b]!.push(a);
  };
  for (let h = 1; h <= hubs; h++) edge(0, h);
  edge(0, bridge);
  for (let f = 0; f < fillers; f++) edge(bridge, firstFiller + f);
  const targets: number[] = [];
  hubPositions.forEach((positions, i) => {
    const t = firstTarget + i;
    targets.push(t);
    for (let p = 0; p < rowLength; p++) {
      // 7 and 64 are coprime: the fillers of one row are distinct.
      edge(t, positions.includes(p) ? 1 + (p % hubs) : firstFiller + ((p * 7 + i) % fillers));
    }
  });
  const rowPtr = new Int32Array(n + 1);
  for (let v = 0; v < n; v++) rowPtr[v + 1] = rowPtr[v]! + adjacency[v]!.length;
  const g = new CsrMatrix({ rows: n, cols: n, rowPtr, colIdx: Int32Array.from(adjacency.flat()), symmetric: true });
  return { g, targets };
}

describe('bottom-up scan of long in-edge rows', () => {
  it('finds the parent at every position of a 40-edge row, and the first of several', async () => {
    const positions = [[0], [3], [4], [5], [15], [19], [20], [21], [35], [39], [6, 30], [25, 26, 27]];
    const { g } = layered(40, positions);
    for (const direction of ['bottom-up', 'auto'] as const) {
      const r = await bfs(g, 0, { direction, parents: true });
      expect(firstDifference(r.depth, bfsReference(g, 0))).toBe(-1);
      expect(checkBfsParents(g, 0, r.depth, r.parent!)).toBe(-1);
    }
  });

  it('reports a source outside the graph met in the 16-at-a-time part of the scan', async () => {
    // Every target's hub sits at position 30; the index at position 10 of the first target's
    // row (row order as stored) is corrupted after validation, past the edges read one by one.
    const { g, targets } = layered(40, [[30], [30]]);
    const t = targets[0]!;
    const bad = g.rowStart(t) + 10;
    g.colIdx[bad] = 1 << 29;
    await expect(bfs(g, 0, { direction: 'bottom-up' })).rejects.toThrow(new RegExp(`^bfs: colIdx\\[${bad}\\] = 536870912`));
    g.colIdx[bad] = -3;
    await expect(bfs(g, 0, { direction: 'bottom-up' })).rejects.toThrow(new RegExp(`^bfs: colIdx\\[${bad}\\] = -3`));
  });
});
