// writeCalibration goes through a temporary file and a rename: none is left behind, whether the
// write succeeds or fails.

import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { calibrationPath, readCalibration, writeCalibration } from '../../src/cost/cache.js';
import { IoError, InvalidArgumentError } from '../../src/errors.js';
import { META, useTempCacheDir } from './cache-env.js';

describe('atomic write', () => {
  const cache = useTempCacheDir();

  it('leaves only the final files after many writes', async () => {
    await Promise.all(Array.from({ length: 8 }, (_, i) => writeCalibration({ i }, { ...META, modelVersion: i % 2 })));
    expect(readdirSync(cache.dir()).sort()).toEqual(['calibration-0123456789abcdef-v0.msgpack', 'calibration-0123456789abcdef-v1.msgpack']);
  });

  it('leaves no temporary file and keeps nothing partial when the rename fails', async () => {
    // A non-empty folder where the file should go makes the final rename fail.
    mkdirSync(join(calibrationPath(META), 'sub'), { recursive: true });
    await expect(writeCalibration({ n: 1 }, META)).rejects.toThrow(IoError);
    await expect(writeCalibration({ n: 1 }, META)).rejects.toThrow(/^writeCalibration: cannot access /);
    expect(readdirSync(cache.dir())).toEqual(['calibration-0123456789abcdef-v3.msgpack']);
  });

  it('throws IoError when the cache folder cannot be created', async () => {
    writeFileSync(join(cache.root(), 'file'), '');
    process.env['DYPE_CACHE_DIR'] = join(cache.root(), 'file', 'cache');
    await expect(writeCalibration({ n: 1 }, META)).rejects.toThrow(IoError);
  });

  it('refuses payloads msgpack cannot encode, and bad meta, before touching the disk', async () => {
    await expect(writeCalibration({ f: Symbol('x') }, META)).rejects.toThrow(InvalidArgumentError);
    await expect(writeCalibration({}, { modelVersion: 1, fingerprint: '../etc' })).rejects.toThrow(/^writeCalibration: meta\.fingerprint must be/);
    await expect(writeCalibration({}, { modelVersion: -1, fingerprint: 'ab' })).rejects.toThrow(/^writeCalibration: meta\.modelVersion/);
    expect((await readCalibration(META)).state).toBe('missing');
  });
});
