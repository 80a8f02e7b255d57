// The native level steps of the distributed BFS (native/src/kernels/dist_bfs.cc) against a plain
// loop over the same rank's rows, level by level, on thin levels (one chunk on the calling thread)
// and wide ones (chunks on the pool): the same depths, the same next frontier as a set, and every
// halo column sent once. No MPI: a rank's rows and halo are made up here.
import { describe, expect, it } from 'vitest';
import { nativeAddon } from '../../src/native/addon.js';
import { plainBottomUpStep, plainTopDownStep } from '../../src/distributed/bfs-steps.js';
import { localRank } from './fixtures/local-rank.js';

const sorted = (xs: ArrayLike<number>): number[] => Array.from(xs).sort((a, b) => a - b);

describe('distributed BFS level steps (native) against a plain loop', () => {
  for (const own of [300, 60_000]) {
    it(`top-down levels of a rank of ${own} rows: same depths, same next frontier, each halo column sent once`, async () => {
      const addon = nativeAddon();
      const g = localRank(own, 0.4 * own, 10, 7);
      const depths = new Int32Array(own).fill(-1);
      const mine = new Int32Array(own).fill(-1);
      const haloSent = new Uint8Array(g.halo);
      const mineSent = new Uint8Array(g.halo);
      let frontier = new Int32Array(own);
      const next = new Int32Array(own);
      const outbox = new Int32Array(g.halo);
      const mineNext = new Int32Array(own);
      const mineOut = new Int32Array(g.halo);
      let size = 0;
      for (const s of [0, own >> 1]) {
        depths[s] = 0;
        mine[s] = 0;
        frontier[size++] = s;
      }
      const everSent: number[] = [];
      for (let level = 0; size > 0; level++) {
        const want = plainTopDownStep(g, { depths: mine, frontier, frontierSize: size, haloSent: mineSent, level, next: mineNext, outbox: mineOut });
        const got = await addon.distBfsTopDown(own, g.halo, g.rowPtr, g.colIdx, depths, frontier, size, haloSent, level, next, outbox);
        expect(sorted(next.subarray(0, got.nextSize))).toEqual(sorted(mineNext.subarray(0, want.nextSize)));
        expect(sorted(outbox.subarray(0, got.outSize))).toEqual(sorted(mineOut.subarray(0, want.outSize)));
        everSent.push(...outbox.subarray(0, got.outSize));
        expect(Array.from(depths)).toEqual(Array.from(mine));
        frontier = next.slice();
        size = got.nextSize;
      }
      expect(new Set(everSent).size).toBe(everSent.length);
      expect(Array.from(haloSent)).toEqual(Array.from(mineSent));
    });

    it(`bottom-up levels of a rank of ${own} rows: same depths and next frontier, with halo flags`, async () => {
      const addon = nativeAddon();
      const g = localRank(own, 0.4 * own, 10, 11);
      const depths = new Int32Array(own).fill(-1);
      const mine = new Int32Array(own).fill(-1);
      const inFrontier = new Uint8Array(own);
      const haloFrontier = new Uint8Array(g.halo);
      const next = new Int32Array(own);
      const mineNext = new Int32Array(own);
      depths[3] = 0;
      mine[3] = 0;
      inFrontier[3] = 1;
      // A halo frontier of every seventh remote vertex, as another rank's flags would arrive.
      for (let h = 0; h < g.halo; h += 7) haloFrontier[h] = 1;
      for (let level = 0; level < 6; level++) {
        const want = plainBottomUpStep(g, { depths: mine, inFrontier, haloFrontier, level, next: mineNext });
        const got = await addon.distBfsBottomUp(own, g.halo, g.rowPtr, g.colIdx, depths, inFrontier, haloFrontier, level, next);
        expect(sorted(next.subarray(0, got.nextSize))).toEqual(sorted(mineNext.subarray(0, want)));
        expect(Array.from(depths)).toEqual(Array.from(mine));
        inFrontier.fill(0);
        for (const v of mineNext.subarray(0, want)) inFrontier[v] = 1;
        haloFrontier.fill(0);
      }
      expect(mine.some((d) => d > 1)).toBe(true);
    });
  }
});
