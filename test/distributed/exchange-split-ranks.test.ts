// On real MPI ranks (mpirun, 2 processes): an exchange that one rank reaches 100 ms late is, for
// the others, about 100 ms of waiting and little of moving bytes, and for the late rank no wait;
// a run's exchanges split so add up to what the ranks spent in them (exchange-timing.ts). Skipped,
// saying why, where the build has no MPI or no launcher is installed.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mpiReady, mpiSkipReason, mpirun } from '../support/mpirun.js';

interface Line {
  rank: number;
  seconds: number;
  split: { transferSeconds: number; waitSeconds: number };
  run: { exchange: number; transfer: number; wait: number };
}

describe.skipIf(!mpiReady)(`exchanges split at the last rank's arrival under mpirun${mpiReady ? '' : ` (skipped: ${mpiSkipReason})`}`, () => {
  it('counts a late rank as the others waiting, not as the exchange, and a run adds up', async () => {
    const job = await mpirun(2, ['--import', 'tsx', join(import.meta.dirname, 'fixtures', 'exchange-split.mts')], { env: { DYPE_THREADS: '1' } });
    expect(job.err.includes('Error') ? job.err : '').toBe('');
    expect(job.code).toBe(0);
    const lines = job.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Line)
      .sort((a, b) => a.rank - b.rank);
    expect(lines.map((l) => l.rank)).toEqual([0, 1]);
    const [early, late] = lines as [Line, Line];
    // The ranks leave the barrier before it at moments up to several ms apart on a loaded
    // machine (one rank's exit can be descheduled), so the bounds leave 30 ms of the 100.
    expect(early.seconds).toBeGreaterThan(0.07);
    expect(early.split.waitSeconds).toBeGreaterThan(0.07);
    expect(early.split.transferSeconds).toBeLessThan(0.02);
    expect(late.split.waitSeconds).toBeLessThan(0.005);
    for (const { split, seconds, run } of lines) {
      expect(split.transferSeconds + split.waitSeconds).toBeCloseTo(seconds, 6);
      expect(run.transfer).toBeGreaterThanOrEqual(0);
      expect(run.wait).toBeGreaterThanOrEqual(0);
      expect(run.transfer + run.wait).toBeCloseTo(run.exchange, 6);
    }
  }, 120_000);
});
