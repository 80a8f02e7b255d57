// The speed readings plans leave between processes (cost/speed-history.ts): kept a week and at
// most SPEED_HISTORY_MAX per device, their drift stated once there are enough, a malformed or
// missing file started afresh, and `observeSpeed` timing only the real devices.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cpuAndCgra } from '../support/cpu-and-cgra.js';
import { deviceKey } from '../../src/cost/calibration.js';
import {
  observeSpeed,
  recordSpeedReadings,
  SPEED_HISTORY_MAX,
  SPEED_HISTORY_WINDOW_MS,
  type SpeedReading,
  speedHistoryDrift,
  speedHistoryDrifts,
} from '../../src/cost/speed-history.js';
import { tempFolder } from '../support/temp.js';

const now = Date.UTC(2026, 10, 30, 12);

describe('speed history', () => {
  it('states the drift of the kept readings: the farthest from their median', async () => {
    const path = join(tempFolder('dype-speed-history-'), 'cache', 'h.json');
    await recordSpeedReadings(
      new Map([
        [
          'cpu/x',
          [
            [now - 3000, 1e-4],
            [now - 2000, 1e-4],
            [now - 1000, 1.6e-4],
          ] as SpeedReading[],
        ],
      ]),
      path,
      now,
    );
    expect(await speedHistoryDrift('cpu/x', path, now)).toBeUndefined(); // three readings: too few
    await recordSpeedReadings(new Map([['cpu/x', [[now, 1e-4]] as SpeedReading[]]]), path, now);
    const d = await speedHistoryDrift('cpu/x', path, now);
    expect(d?.readings).toBe(4);
    expect(d?.drift).toBeCloseTo(0.6, 6);
    expect(d?.spanSeconds).toBe(3);
  });

  it('drops readings older than the window and keeps at most the newest SPEED_HISTORY_MAX', async () => {
    const path = join(tempFolder('dype-speed-history-'), 'h.json');
    const old: SpeedReading[] = Array.from({ length: 10 }, (_, i) => [now - SPEED_HISTORY_WINDOW_MS - 1000 - i, 9e-4]);
    const fresh: SpeedReading[] = Array.from({ length: SPEED_HISTORY_MAX + 20 }, (_, i) => [now - 1e6 + i, i < 20 ? 5e-4 : 1e-4]);
    await recordSpeedReadings(new Map([['cpu/x', [...old, ...fresh]]]), path, now);
    const d = await speedHistoryDrift('cpu/x', path, now);
    expect(d?.readings).toBe(SPEED_HISTORY_MAX);
    // The old slow readings and the first 20 fresh slow ones are gone: the rest agree.
    expect(d?.drift).toBeCloseTo(0.02, 6);
  });

  it('starts afresh from a malformed file, and keeps other keys when one is added', async () => {
    const path = join(tempFolder('dype-speed-history-'), 'h.json');
    writeFileSync(path, '{"cpu/x": [[1, "fast"], "no"], "gpu/y": 7');
    expect(await speedHistoryDrift('cpu/x', path, now)).toBeUndefined();
    const four: SpeedReading[] = [1, 2, 3, 4].map((i) => [now - i, 1e-4]);
    await recordSpeedReadings(new Map([['cpu/x', four]]), path, now);
    await recordSpeedReadings(new Map([['cpu/z', four]]), path, now);
    expect((await speedHistoryDrift('cpu/x', path, now))?.readings).toBe(4);
    expect((await speedHistoryDrift('cpu/z', path, now))?.readings).toBe(4);
  });

  it('observeSpeed times the real devices only, three readings a call', async () => {
    const path = join(tempFolder('dype-speed-history-'), 'h.json');
    const system = cpuAndCgra();
    try {
      await observeSpeed(system, 3, path);
      const returned = await observeSpeed(system, 3, path);
      const drifts = await speedHistoryDrifts(system, path);
      expect([...drifts.keys()]).toEqual(['cpu']);
      expect(drifts.get('cpu')?.readings).toBe(6);
      // What explore reads: the drifts of the history observeSpeed has just written.
      expect(returned).toEqual(drifts);
      expect(await speedHistoryDrift(deviceKey(system.devices[1]!), path)).toBeUndefined();
    } finally {
      await system.dispose();
    }
  });
});
