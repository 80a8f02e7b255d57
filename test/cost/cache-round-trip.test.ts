// What writeCalibration stores, readCalibration returns unchanged, typed arrays included.

import { readdirSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCalibration, writeCalibration } from '../../src/cost/cache.js';
import { META, useTempCacheDir } from './cache-env.js';

describe('calibration round trip', () => {
  const cache = useTempCacheDir();

  it('returns the payload with typed arrays, Maps and nesting intact', async () => {
    const payload = {
      coefficients: Float64Array.of(2e-6, 1.5e-9, Number.MIN_VALUE, -0),
      rows: Int32Array.of(1, -2, 3),
      counts: new Uint8Array([0, 255]),
      perDevice: new Map([['cpu0', { spmm: Float32Array.of(0.5) }]]),
      label: 'h100 node',
      nested: [{ a: 1 }, { a: 2 }],
    };
    const before = Date.now();
    const path = await writeCalibration(payload, META);
    expect(basename(path)).toBe('calibration-0123456789abcdef-v3.msgpack');
    expect(readdirSync(cache.dir())).toEqual([basename(path)]);
    expect(statSync(cache.dir()).mode & 0o777).toBe(0o700);

    const found = await readCalibration(META);
    if (found.state !== 'valid') throw new Error(`expected valid, got ${JSON.stringify(found)}`);
    expect(found.path).toBe(path);
    expect(found.payload).toEqual(payload);
    const p = found.payload as typeof payload;
    expect(p.coefficients).toBeInstanceOf(Float64Array);
    expect(Object.is(p.coefficients[3], -0)).toBe(true);
    expect(p.rows).toBeInstanceOf(Int32Array);
    expect(p.perDevice.get('cpu0')?.spmm).toBeInstanceOf(Float32Array);
    expect(found.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it('replaces an older calibration for the same meta', async () => {
    await writeCalibration({ n: 1 }, META);
    await writeCalibration({ n: 2 }, META);
    const found = await readCalibration(META);
    expect(found.state === 'valid' && found.payload).toEqual({ n: 2 });
    expect(readdirSync(cache.dir())).toHaveLength(1);
  });
});
