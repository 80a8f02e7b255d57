// Real I/O failures are thrown as IoError (they are not the file's fault, and rebuilding would
// fail too); removeCalibration deletes only calibration files.

import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { calibrationPath, readCalibration, removeCalibration, writeCalibration } from '../../src/cost/cache.js';
import { InvalidArgumentError, IoError } from '../../src/errors.js';
import { META, useTempCacheDir } from './cache-env.js';

describe('cache I/O errors', () => {
  useTempCacheDir();

  it('throws IoError when the path is a folder', async () => {
    mkdirSync(calibrationPath(META), { recursive: true });
    await expect(readCalibration(META)).rejects.toThrow(IoError);
    await expect(readCalibration(META)).rejects.toThrow(/^readCalibration: cannot access .*not a regular file/);
  });

  it.skipIf(process.getuid?.() === 0)('throws IoError when the file cannot be read', async () => {
    const path = await writeCalibration({ n: 1 }, META);
    chmodSync(path, 0o000);
    try {
      await expect(readCalibration(META)).rejects.toThrow(IoError);
    } finally {
      chmodSync(path, 0o600);
    }
  });

  it('removes a calibration file, tolerates it being gone, refuses other paths', async () => {
    const path = await writeCalibration({ n: 1 }, META);
    await removeCalibration(path);
    expect(existsSync(path)).toBe(false);
    await removeCalibration(path);
    expect((await readCalibration(META)).state).toBe('missing');
    await expect(removeCalibration('/etc/passwd')).rejects.toThrow(InvalidArgumentError);
    await expect(removeCalibration(`${path}.123-abcd.tmp`)).rejects.toThrow(/^removeCalibration: /);
  });
});
