// A rank's exchanges split at the last rank's arrival (distributed/exchange-timing.ts): what it
// waited before the last rank came is load imbalance, what came after is the bytes' time that a
// planner predicts. Ranks here are loopback communicators in one process, on one host's clock.

import { describe, expect, it } from 'vitest';
import { type ExchangeSpan, spanOf, splitExchanges } from '../../src/distributed/exchange-timing.js';
import type { Communicator } from '../../src/distributed/mpi.js';
import { loopback } from './loopback.js';

/** Loopback ranks that say they share one host (no clock offsets to estimate). */
const oneHost = (size: number): Communicator[] => loopback(size).map((c) => Object.assign(c, { wait: { localRanks: size } }));

describe('splitExchanges', () => {
  it("counts each rank's exchange from the last arrival, and the time before it as waiting", async () => {
    // Exchange 0: rank 1 arrives 5 s after rank 0; both see it complete 0.5 s after that.
    // Exchange 1: rank 0 is the late one, by 1 s; rank 1 completes 0.25 s after it, rank 0 0.5 s.
    const spans: ExchangeSpan[][] = [
      [
        { enteredAt: 100, completedAt: 105.5 },
        { enteredAt: 110, completedAt: 110.5 },
      ],
      [
        { enteredAt: 105, completedAt: 105.5 },
        { enteredAt: 109, completedAt: 110.25 },
      ],
    ];
    const comms = oneHost(2);
    const [zero, one] = await Promise.all(comms.map((c) => splitExchanges(c, spans[c.rank]!)));
    expect(zero).toEqual({ transferSeconds: 0.5 + 0.5, waitSeconds: 5 + 0 });
    expect(one).toEqual({ transferSeconds: 0.5 + 0.25, waitSeconds: 0 + 1 });
  });

  it('estimates the clocks apart where the ranks may be on several hosts (here one clock: offsets near zero)', async () => {
    const spans: ExchangeSpan[][] = [[{ enteredAt: 100, completedAt: 105.5 }], [{ enteredAt: 105, completedAt: 105.5 }]];
    const comms = loopback(2); // no `wait`: the communicator does not say its ranks share a host
    const [zero, one] = await Promise.all(comms.map((c) => splitExchanges(c, spans[c.rank]!)));
    expect(zero!.waitSeconds).toBeCloseTo(5, 2);
    expect(zero!.transferSeconds).toBeCloseTo(0.5, 2);
    expect(one!.waitSeconds).toBeCloseTo(0, 2);
    expect(one!.transferSeconds).toBeCloseTo(0.5, 2);
  });

  it('is undefined where a rank has no moments (a communicator without clocks), and zero for no exchanges', async () => {
    const comms = oneHost(2);
    const spans = [[{ enteredAt: 1, completedAt: 2 }], [undefined]];
    expect(await Promise.all(comms.map((c) => splitExchanges(c, spans[c.rank]!)))).toEqual([undefined, undefined]);
    expect(await Promise.all(oneHost(2).map((c) => splitExchanges(c, [])))).toEqual([
      { transferSeconds: 0, waitSeconds: 0 },
      { transferSeconds: 0, waitSeconds: 0 },
    ]);
  });

  it('refuses ranks that made different numbers of exchanges, naming the function', async () => {
    const comms = oneHost(2);
    const spans = [[{ enteredAt: 1, completedAt: 2 }], []];
    const results = await Promise.allSettled(comms.map((c) => splitExchanges(c, spans[c.rank]!)));
    for (const r of results) expect(r.status === 'rejected' && String(r.reason)).toMatch(/splitExchanges: the ranks made different numbers of exchanges/);
  });

  it('reads a span from collectives that stamp their moments, and none from those that do not', () => {
    expect(spanOf({ seconds: 1, enteredAt: 3, completedAt: 4 })).toEqual({ enteredAt: 3, completedAt: 4 });
    expect(spanOf({ seconds: 1, enteredAt: 3, completedAt: 4 }, { seconds: 1, enteredAt: 5, completedAt: 7 })).toEqual({ enteredAt: 3, completedAt: 7 });
    expect(spanOf({ seconds: 1 })).toBeUndefined();
    expect(spanOf(undefined)).toBeUndefined();
  });
});
