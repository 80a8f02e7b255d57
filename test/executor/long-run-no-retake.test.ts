// A run longer than RETAKE_LONGEST_SECONDS is not taken again for a few more unaided pool jobs:
// a held core moves it by a few per cent, which the median of its rounds absorbs, and retakes of
// a multi-source BFS of mdual (130 ms a run) had made 11.9 of a plan's 33 s. A short run that a
// stall made long is still taken again: the run's length is its shortest take, not the stalled one.

import { describe, expect, it } from 'vitest';
import { RETAKE_LONGEST_SECONDS, repeatInRounds } from '../../src/executor/repeats.js';
import { scriptedRuns } from './scripted-runs.js';

describe('repeatInRounds and long runs', () => {
  it('keeps a long run that the pool ran short of its workers', async () => {
    const long = RETAKE_LONGEST_SECONDS * 5;
    // Warm-up clean, then every take with more unaided jobs than the fewest.
    const s = scriptedRuns([long, long, long, long], [0, 4, 4, 4], 0.001);
    const [samples] = await repeatInRounds([s.run], 3, { unaided: s.counter });
    expect(samples).toHaveLength(3);
    expect(s.takes()).toBe(4);
  });

  it('still takes again a short run that a stall made long', async () => {
    const short = RETAKE_LONGEST_SECONDS / 10;
    const s = scriptedRuns([short, RETAKE_LONGEST_SECONDS * 50, short, short, short], [0, 3, 0, 0, 0], 0.001);
    const [samples] = await repeatInRounds([s.run], 3, { unaided: s.counter });
    expect(samples!.map((r) => r.seconds)).toEqual([short, short, short]);
    expect(s.takes()).toBe(5);
  });
});
