// Host CPU pieces are timed with the caches as a run leaves them: repeatInRounds runs `before`
// ahead of each timed run (never the warm-up) and counts its time toward the run's total, and
// `turnoverFor` turns the host's caches over only for devices that compute on the host's cores.

import { describe, expect, it } from 'vitest';
import { cpuAndCgra } from '../support/cpu-and-cgra.js';
import { onHostCores, turnOverCaches, turnoverFor } from '../../src/executor/cache-turnover.js';
import { MAX_REPEATS, repeatInRounds } from '../../src/executor/repeats.js';

describe('repeatInRounds with a preparation before each timed run', () => {
  it('prepares every timed run and no warm-up, and counts the preparation toward the total', async () => {
    const events: string[] = [];
    const runs = [0, 1].map((k) => async () => {
      events.push(`run ${k}`);
      return { seconds: 0 }; // a run too short to reach the total by itself
    });
    const samples = await repeatInRounds(runs, 3, {
      before: (k) => {
        events.push(`before ${k}`);
        return new Promise((resolve) => setTimeout(resolve, 2)); // 2 ms of preparation
      },
    });
    // The warm-up runs come first, unprepared.
    expect(events.slice(0, 2)).toEqual(['run 0', 'run 1']);
    // Then each timed run right after its own preparation.
    for (let i = 2; i < events.length; i += 2) expect(events[i + 1]).toBe(events[i]!.replace('before', 'run'));
    // Zero-second runs would go to MAX_REPEATS; 2 ms of preparation each reaches the 5 ms total in three.
    for (const s of samples) {
      expect(s.length).toBeGreaterThanOrEqual(3);
      expect(s.length).toBeLessThan(MAX_REPEATS);
    }
  });

  it('without a preparation, zero-second runs still stop at the maximum', async () => {
    const [s] = await repeatInRounds([async () => ({ seconds: 0 })], 3, { before: () => undefined });
    expect(s).toHaveLength(MAX_REPEATS);
  });
});

describe('turnoverFor', () => {
  it('turns the caches over for the host CPU only, not for a simulator', async () => {
    const system = cpuAndCgra();
    try {
      const [cpu, cgra] = system.devices as [never, never];
      expect(onHostCores(cpu)).toBe(true);
      expect(onHostCores(cgra)).toBe(false);
      const prepare = turnoverFor((k) => system.devices[k]!);
      expect(prepare(1)).toBeUndefined();
      const pending = prepare(0);
      expect(pending).toBeInstanceOf(Promise);
      await pending;
      await expect(turnOverCaches()).resolves.toBeUndefined();
    } finally {
      await system.dispose();
    }
  });
});
