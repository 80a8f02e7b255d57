// The pool's workers stay awake through a burst of short jobs. A level-synchronous kernel (a BFS
// level, a bottom-up step) issues one job after a few microseconds of serial work, and the caller
// often finishes a short job's chunks before a worker reaches it; a worker that then went to
// sleep came late to the next job too, and every job of the burst paid a wake-up (6.5 us a job
// on a 2-vCPU VM, against 0.4 us with the worker polling). Counted, not timed: how many times a
// worker slept during the burst.

import { describe, expect, it } from 'vitest';
import { nativeAddon } from '../../src/native/addon.js';

const addon = nativeAddon();

describe('the thread pool under a burst of short jobs', () => {
  it.skipIf(addon.threads() < 2)('keeps its workers awake between jobs', async () => {
    const jobs = 400;
    // Two empty chunks after 20 us of serial work: the caller usually takes both before a worker comes.
    const { sleeps } = await addon.poolProbe(jobs, 2, 20);
    // Before the fix nearly every job put the worker to sleep; a worker descheduled for more than
    // its 2 ms of polling (a loaded CI machine) may still sleep now and then.
    expect(sleeps).toBeLessThan(jobs / 8);
  });

  it('refuses a bad burst by name', () => {
    expect(() => addon.poolProbe(0, 2, 20)).toThrow(/poolProbe: jobs/);
    expect(() => addon.poolProbe(10, 2, -1)).toThrow(/poolProbe: gapMicros/);
  });
});
