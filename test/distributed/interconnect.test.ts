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

describe('predictExchange, cache states', () => {
  const pts = (t: number): [number, number][] => [
    [8, t],
    [1e6, 10 * t],
  ];
  const net = {
    latencySeconds: 1e-4,
    bytesPerSecond: 1e9,
    source: 'measured',
    points: pts(1e-4),
    cacheStates: [
      { touchedBytes: 0, points: pts(1e-5) },
      { touchedBytes: 1 << 20, points: pts(1e-4) },
      { touchedBytes: 1 << 26, points: pts(1e-3) },
    ],
  };
  const at = (touched?: number) => predictExchange(layout([0, 1]), layout([0, 0]), 8, 0, net, touched);

  it('prices an exchange by the bytes its rank touched since the last one, between the two nearest measured states', () => {
    expect(at(0)).toBeCloseTo(1e-5, 12);
    expect(at(1 << 20)).toBeCloseTo(1e-4, 12);
    expect(at(1 << 26)).toBeCloseTo(1e-3, 12);
    expect(at(1 << 30)).toBeCloseTo(1e-3, 12); // beyond the deepest state measured: that state
    // Half way in log(1 + touched / L1) between 1 MiB and 64 MiB (L1 32 KiB): half way in time.
    const x = (t: number) => Math.log2(1 + t / 32768);
    const mid = 32768 * (2 ** ((x(1 << 20) + x(1 << 26)) / 2) - 1);
    expect(at(mid)).toBeCloseTo((1e-4 + 1e-3) / 2, 9);
    expect(at(1 << 10)).toBeGreaterThan(1e-5);
    expect(at(1 << 10)).toBeLessThan(1e-4);
  });

  it('without the bytes touched, or without states, prices on the points measured after an L2 of traffic', () => {
    expect(at()).toBeCloseTo(1e-4, 12);
    const { cacheStates: _, ...plain } = net;
    expect(predictExchange(layout([0, 1]), layout([0, 0]), 8, 0, plain, 0)).toBeCloseTo(1e-4, 12);
  });
});

describe('measureInterconnect', () => {
  it('measures increasing times for increasing sizes on loopback ranks, and refuses bad sizes', async () => {
    const nets = await Promise.all(loopback(2).map((c) => measureInterconnect(c, { largeBytes: 1 << 16, rounds: 3 })));
    for (const net of nets) {
      expect(net.points!.length).toBe(5);
      expect(net.points!.map((p) => p[0])).toEqual([8, 4096, 16384, 65536, 262144]);
      expect(net.cacheStates!.map((c) => c.touchedBytes)).toEqual([0, expect.any(Number), 1 << 26]);
      expect(net.cacheStates![1]!.points).toBe(net.points);
      for (const c of net.cacheStates!) expect(c.points.map((p) => p[0])).toEqual([8, 4096, 16384, 65536, 262144]);
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
    // The timed exchanges are the last 5 sizes x 3 cache states x 4 rounds.
    const timed = seen[0]!.slice(-60);
    expect(timed[0]!.at - started).toBeGreaterThanOrEqual(490);
    // Each size's rounds send a buffer written just before (round numbers 0..3), not one sent before.
    for (let g = 0; g < 15; g++) expect(timed.slice(4 * g, 4 * g + 4).map((x) => x.first)).toEqual([0, 1, 2, 3]);
    expect(nets[0]!.source).toMatch(/one rank 1 ms late, timed from its arrival, after an L2 of traffic/);
  });
});
