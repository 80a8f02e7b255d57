// The distributed BFS level steps trust no array they are given: a column outside the rank's rows
// and halo, row pointers that go back, a frontier entry that is not a row, or an array of the wrong
// length stop the step with an error naming the function and the value, on the one-chunk path and
// on the pool's, and nothing is read out of bounds (the sanitised CI job runs this too).
import { describe, expect, it } from 'vitest';
import { nativeAddon } from '../../src/native/addon.js';
import { localRank } from './fixtures/local-rank.js';

describe('distributed BFS level steps: corrupted inputs', () => {
  for (const own of [200, 40_000]) {
    it(`names a column outside the rank's rows and halo (${own} rows)`, async () => {
      const addon = nativeAddon();
      const g = localRank(own, own / 4, 8, 5);
      const at = g.rowPtr[1]!; // the second row's first edge; row 1 is in the frontier
      for (const value of [own + g.halo, -3, 1 << 30]) {
        g.colIdx[at] = value;
        const frontier = Int32Array.from({ length: own }, (_, i) => i);
        const depths = new Int32Array(own).fill(-1);
        await expect(
          addon.distBfsTopDown(own, g.halo, g.rowPtr, g.colIdx, depths, frontier, own, new Uint8Array(g.halo), 0, new Int32Array(own), new Int32Array(g.halo)),
        ).rejects.toThrow(`distBfsTopDown: colIdx[${at}] = ${value} is outside the rank's ${own} rows and ${g.halo} halo columns`);
        // Fresh depths: the top-down step may have reached row 1 on another chunk before it stopped.
        const unreached = new Int32Array(own).fill(-1);
        await expect(
          addon.distBfsBottomUp(own, g.halo, g.rowPtr, g.colIdx, unreached, new Uint8Array(own), new Uint8Array(g.halo), 0, new Int32Array(own)),
        ).rejects.toThrow(`distBfsBottomUp: colIdx[${at}] = ${value} is outside`);
      }
    });

    it(`names row pointers that go back (${own} rows)`, async () => {
      const addon = nativeAddon();
      const g = localRank(own, own / 4, 8, 6);
      g.rowPtr[7] = g.rowPtr[8]! + 1;
      const frontier = Int32Array.from({ length: own }, (_, i) => i);
      await expect(
        addon.distBfsTopDown(
          own,
          g.halo,
          g.rowPtr,
          g.colIdx,
          new Int32Array(own).fill(-1),
          frontier,
          own,
          new Uint8Array(g.halo),
          0,
          new Int32Array(own),
          new Int32Array(g.halo),
        ),
      ).rejects.toThrow(/^distBfsTopDown: rowPtr\[(6\.\.7|7\.\.8)\] = -?\d+, \d+ is not a range inside colIdx/);
      await expect(
        addon.distBfsBottomUp(
          own,
          g.halo,
          g.rowPtr,
          g.colIdx,
          new Int32Array(own).fill(-1),
          new Uint8Array(own),
          new Uint8Array(g.halo),
          0,
          new Int32Array(own),
        ),
      ).rejects.toThrow(/^distBfsBottomUp: rowPtr\[(6\.\.7|7\.\.8)\]/);
    });
  }

  it('names a frontier entry that is not one of the rank rows', async () => {
    const addon = nativeAddon();
    const g = localRank(100, 20, 4, 9);
    const frontier = new Int32Array(100);
    frontier[1] = 100;
    await expect(
      addon.distBfsTopDown(
        100,
        g.halo,
        g.rowPtr,
        g.colIdx,
        new Int32Array(100).fill(-1),
        frontier,
        2,
        new Uint8Array(g.halo),
        0,
        new Int32Array(100),
        new Int32Array(g.halo),
      ),
    ).rejects.toThrow("distBfsTopDown: frontier[1] = 100 is not one of the rank's 100 rows");
  });

  it('refuses arrays of the wrong length before it starts', () => {
    const addon = nativeAddon();
    const g = localRank(100, 20, 4, 9);
    const call = (halo: Uint8Array, next: Int32Array) =>
      addon.distBfsTopDown(100, g.halo, g.rowPtr, g.colIdx, new Int32Array(100), new Int32Array(100), 1, halo, 0, next, new Int32Array(g.halo));
    expect(() => call(new Uint8Array(5), new Int32Array(100))).toThrow('distBfsTopDown: haloSent has length 5, expected 20');
    expect(() => call(new Uint8Array(20), new Int32Array(99))).toThrow('distBfsTopDown: next has length 99, expected 100');
    expect(() =>
      addon.distBfsBottomUp(100, g.halo, g.rowPtr.subarray(1), g.colIdx, new Int32Array(100), new Uint8Array(100), new Uint8Array(20), 0, new Int32Array(100)),
    ).toThrow('distBfsBottomUp: rowPtr has length 100, expected own + 1 = 101');
  });
});
