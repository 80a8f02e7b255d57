// Predicting an exchange from what a rank sends and receives: one latency per peer plus the
// larger direction at the bandwidth; between measured sizes, linear interpolation of the
// measured times (the effective bandwidth between ranks on one host changes with the size).

import { describe, expect, it } from 'vitest';
import { measureInterconnect, predictExchange } from '../../src/distributed/interconnect.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { loopback } from './loopback.js';

const layout = (counts: number[]) => {
  const c = Int32Array.from(counts);
  const d = new Int32Array(c.length);
  for (let r = 1; r < c.length; r++) d[r] = d[r - 1]! + c[r - 1]!;
  return { counts: c, displs: d };
};

describe('predictExchange', () => {
  it('charges a latency per peer and the larger direction at the bandwidth; nothing for a rank to itself', () => {
    const net = { latencySeconds: 1e-5, bytesPerSecond: 1e9, source: 'given' };
    // Rank 1 sends 1000 and 0 elements of 8 bytes to ranks 0 and 2 and receives 500 from 2; its own part is free.
    const t = predictExchange(layout([1000, 77, 0]), layout([0, 99, 500]), 8, 1, net);
    expect(t).toBeCloseTo(2 * 1e-5 + 8000 / 1e9, 12);
    expect(predictExchange(layout([0, 5, 0]), layout([0, 5, 0]), 8, 1, net)).toBe(0);
  });

  it('interpolates between measured sizes and follows the last segment beyond them', () => {
    const net = {
      latencySeconds: 1e-5,
      bytesPerSecond: 1e9,
      source: 'measured',
      points: [
        [8, 1e-5],
        [1e6, 1e-4],
        [4e6, 1e-3],
      ] as [number, number][],
    };
    // 62,500 elements of 8 bytes received: 500 kB, half way from 8 B to 1 MB.
    expect(predictExchange(layout([0, 0]), layout([0, 62500]), 8, 0, net)).toBeCloseTo(1e-5 + (9e-5 * (5e5 - 8)) / (1e6 - 8), 12);
    const at = (bytes: number) => predictExchange(layout([0, bytes / 8]), layout([0, 0]), 8, 0, net);
    expect(at(2.5e6)).toBeCloseTo(1e-4 + (0.9e-3 * 1.5e6) / 3e6, 12);
    expect(at(8e6)).toBeCloseTo(1e-3 + (0.9e-3 * 4e6) / 3e6, 12);
  });
});

describe('predictExchange, warm', () => {
  it('prices a warm exchange on the points measured back to back, a cold one (the default) on those after a turnover', () => {
    const net = {
      latencySeconds: 1e-4,
      bytesPerSecond: 1e9,
      source: 'measured',
      points: [
        [8, 1e-4],
        [1e6, 1e-3],
      ] as [number, number][],
      warmPoints: [
        [8, 1e-5],
        [1e6, 2e-4],
      ] as [number, number][],
    };
    expect(predictExchange(layout([0, 1]), layout([0, 0]), 8, 0, net)).toBeCloseTo(1e-4, 9);
    expect(predictExchange(layout([0, 1]), layout([0, 0]), 8, 0, net, true)).toBeCloseTo(1e-5, 9);
    // No warm points measured: the cold ones serve both.
    const { warmPoints: _, ...cold } = net;
    expect(predictExchange(layout([0, 1]), layout([0, 0]), 8, 0, cold, true)).toBeCloseTo(1e-4, 9);
  });
});

describe('measureInterconnect', () => {
  it('measures increasing times for increasing sizes on loopback ranks, and refuses bad sizes', async () => {
    const nets = await Promise.all(loopback(2).map((c) => measureInterconnect(c, { largeBytes: 1 << 16, rounds: 3 })));
    for (const net of nets) {
      expect(net.points!.length).toBe(5);
      expect(net.points!.map((p) => p[0])).toEqual([8, 4096, 16384, 65536, 262144]);
      expect(net.warmPoints!.map((p) => p[0])).toEqual([8, 4096, 16384, 65536, 262144]);
      expect(net.warmBelowBytes).toBeGreaterThan(0);
      expect(net.latencySeconds).toBeGreaterThanOrEqual(0);
    }
    await expect(measureInterconnect(loopback(1)[0]!, { largeBytes: 12 })).rejects.toThrow(InvalidArgumentError);
  });
});

describe('measureInterconnect, as a run makes exchanges', () => {
  it('writes each timed exchange afresh, after untimed passes of every size that last half a second', async () => {
    const ranks = loopback(2);
    // What each rank's alltoallv saw: the first element of its send buffer, and when it came.
    const seen: { first: number; at: number }[][] = [[], []];
    const watched = ranks.map((c, r) => ({
      ...c,
      alltoallv: ((send, sc, sd, recv, rc, rd) => {
        seen[r]!.push({ first: send[0]!, at: performance.now() });
        return c.alltoallv(send, sc, sd, recv, rc, rd);
      }) as typeof c.alltoallv,
    }));
    const started = performance.now();
    const nets = await Promise.all(watched.map((c) => measureInterconnect(c, { largeBytes: 1 << 12, rounds: 4 })));
    // The timed exchanges are the last 5 sizes x 4 rounds x (after a turnover, back to back).
    const timed = seen[0]!.slice(-40);
    expect(timed[0]!.at - started).toBeGreaterThanOrEqual(490);
    // Each size's rounds send a buffer written just before (round numbers 0..3), not one sent before.
    for (let g = 0; g < 10; g++) expect(timed.slice(4 * g, 4 * g + 4).map((x) => x.first)).toEqual([0, 1, 2, 3]);
    expect(nets[0]!.source).toMatch(/after a cache turnover as in a run/);
  });
});
