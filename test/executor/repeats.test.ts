// Timing repeats: a fixed count for long runs, more for short ones until their total is worth a
// median (a 20 us piece timed five times on a shared machine is noise), never unbounded.

import { describe, expect, it } from 'vitest';
import { MAX_REPEATS, MIN_TOTAL_SECONDS, repeatRuns } from '../../src/executor/repeats.js';

const runOf = (seconds: number) => async () => ({ seconds });

describe('repeatRuns', () => {
  it('runs a long piece exactly the minimum number of times', async () => {
    expect((await repeatRuns(runOf(MIN_TOTAL_SECONDS), 5)).length).toBe(5);
  });

  it('repeats a short piece until its runs total the minimum time', async () => {
    const runs = await repeatRuns(runOf(MIN_TOTAL_SECONDS / 12), 5);
    expect(runs.length).toBe(12);
  });

  it('stops at the maximum for a piece too short to reach the total', async () => {
    expect((await repeatRuns(runOf(1e-9), 3)).length).toBe(MAX_REPEATS);
  });
});
