// Calibrations for another model version, another machine or another envelope format are
// 'stale'; another machine's file under its own name (a shared home folder) is left alone.

import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { Packr } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { calibrationPath, readCalibration, writeCalibration } from '../../src/cost/cache.js';
import { META, useTempCacheDir } from './cache-env.js';

describe('stale calibrations', () => {
  useTempCacheDir();
  const OTHER_MACHINE = { ...META, fingerprint: 'fedcba9876543210' };

  it("reports this machine's calibration for another model version as stale, with its path", async () => {
    const old = await writeCalibration({ n: 1 }, { ...META, modelVersion: 2 });
    const found = await readCalibration(META);
    expect(found).toEqual({ state: 'stale', path: old, reason: "this machine's calibration is for model version 2, not 3" });
  });

  it('reports a file whose envelope names another model version as stale', async () => {
    const old = await writeCalibration({ n: 1 }, { ...META, modelVersion: 2 });
    copyFileSync(old, calibrationPath(META));
    expect(await readCalibration(META)).toMatchObject({ state: 'stale', path: calibrationPath(META), reason: expect.stringMatching(/model version 2/) });
  });

  it('reports a file calibrated on another machine as stale', async () => {
    const foreign = await writeCalibration({ n: 1 }, OTHER_MACHINE);
    copyFileSync(foreign, calibrationPath(META)); // e.g. a cache folder copied between machines
    expect(await readCalibration(META)).toMatchObject({
      state: 'stale',
      reason: 'calibrated on machine fedcba9876543210, this is 0123456789abcdef',
    });
  });

  it("ignores another machine's own file: missing, not stale", async () => {
    await writeCalibration({ n: 1 }, OTHER_MACHINE);
    expect((await readCalibration(META)).state).toBe('missing');
    expect((await readCalibration(OTHER_MACHINE)).state).toBe('valid');
  });

  it('reports another envelope format version as stale', async () => {
    const path = await writeCalibration({ n: 1 }, META);
    const packr = new Packr({ moreTypes: true });
    writeFileSync(path, packr.pack({ ...(packr.unpack(readFileSync(path)) as object), formatVersion: 2 }));
    expect(await readCalibration(META)).toMatchObject({ state: 'stale', reason: expect.stringMatching(/format version 2/) });
  });
});
