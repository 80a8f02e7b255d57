// No file yet is 'missing' (whether or not the folder exists), and reading creates nothing.

import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCalibration } from '../../src/cost/cache.js';
import { META, useTempCacheDir } from './cache-env.js';

describe('missing calibration', () => {
  const cache = useTempCacheDir();

  it('is missing when the cache folder does not exist, and stays uncreated', async () => {
    expect(await readCalibration(META)).toEqual({ state: 'missing', path: join(cache.dir(), 'calibration-0123456789abcdef-v3.msgpack') });
    expect(existsSync(cache.dir())).toBe(false);
  });

  it('is missing in an empty cache folder', async () => {
    mkdirSync(cache.dir());
    expect((await readCalibration(META)).state).toBe('missing');
  });
});
