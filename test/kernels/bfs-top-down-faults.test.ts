// A graph corrupted after it was built (an index or a row pointer changed in place) stops a
// top-down search with an error naming the entry, on the serial path (thin levels) with and
// without a parent tree: the checks that keep a search inside its arrays (bfs_steps.h).
import { describe, expect, it } from 'vitest';
import { bfs } from '../../src/kernels/bfs.js';
import { pathGraph as path } from '../support/path-graph.js';

describe('bfs: a corrupted graph on the serial top-down path', () => {
  for (const parents of [false, true]) {
    it(`reports an index outside the vertices${parents ? ' (with parents)' : ''}`, async () => {
      const g = path(64);
      const at = g.rowStart(40) + 1;
      for (const value of [64, 1 << 30, -5]) {
        g.colIdx[at] = value;
        await expect(bfs(g, 0, { direction: 'top-down', parents })).rejects.toThrow(`bfs: colIdx[${at}] = ${value} of the graph is outside [0, 64)`);
      }
    });

    it(`reports row pointers that go back${parents ? ' (with parents)' : ''}`, async () => {
      const g = path(64);
      const rowPtr = g.rowPtr as Int32Array;
      rowPtr[30] = rowPtr[31]! + 1;
      await expect(bfs(g, 0, { direction: 'top-down', parents })).rejects.toThrow(
        /^bfs: rowPtr of the graph is not non-decreasing within \[0, nnz\] at row 30/,
      );
    });
  }

  it('searches the same graph right once it is mended', async () => {
    const g = path(64);
    const at = g.rowStart(40) + 1;
    const good = g.colIdx[at]!;
    g.colIdx[at] = 99;
    await expect(bfs(g, 0, { direction: 'top-down' })).rejects.toThrow(/colIdx/);
    g.colIdx[at] = good;
    const r = await bfs(g, 0, { direction: 'top-down', parents: true });
    expect(Array.from(r.depth)).toEqual(Array.from({ length: 64 }, (_, v) => v));
    expect(r.parent![63]).toBe(62);
  });
});
