// Truncated files, random bytes, an empty file and msgpack that is not our envelope are all
// 'corrupted', reported with a reason rather than thrown.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Packr } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { calibrationPath, readCalibration, writeCalibration } from '../../src/cost/cache.js';
import { lcg } from '../support/random.js';
import { META, useTempCacheDir } from './cache-env.js';

describe('corrupted files', () => {
  const cache = useTempCacheDir();
  const put = (bytes: Uint8Array | string) => {
    mkdirSync(cache.dir(), { recursive: true });
    writeFileSync(calibrationPath(META), bytes);
  };

  it('reports every truncation of a good file as corrupted', async () => {
    const path = await writeCalibration({ c: Float64Array.of(1, 2, 3), name: 'x' }, META);
    const full = readFileSync(path);
    for (const keep of [0, 1, 10, full.length >> 1, full.length - 1]) {
      writeFileSync(path, full.subarray(0, keep));
      const found = await readCalibration(META);
      expect(found.state, `truncated to ${keep} bytes`).toBe('corrupted');
    }
  });

  it('reports trailing bytes after the envelope as corrupted', async () => {
    const path = await writeCalibration({ n: 1 }, META);
    writeFileSync(path, Buffer.concat([readFileSync(path), Buffer.from([0x01, 0x02])]));
    expect((await readCalibration(META)).state).toBe('corrupted');
  });

  it('reports random garbage as corrupted', async () => {
    for (let seed = 1; seed <= 20; seed++) {
      const rnd = lcg(seed);
      put(Uint8Array.from({ length: 1 + Math.floor(rnd() * 400) }, () => Math.floor(rnd() * 256)));
      expect((await readCalibration(META)).state, `seed ${seed}`).toBe('corrupted');
    }
  });

  it('reports msgpack without the magic, or with mistyped fields, as corrupted', async () => {
    const packr = new Packr({ moreTypes: true });
    put(packr.pack({ hello: 'world' }));
    expect(await readCalibration(META)).toMatchObject({ state: 'corrupted', reason: expect.stringMatching(/not a dype calibration file/) });
    put('{"magic":"dype-calibration"}');
    expect((await readCalibration(META)).state).toBe('corrupted');
    const path = await writeCalibration({ n: 1 }, META);
    const envelope = packr.unpack(readFileSync(path)) as Record<string, unknown>;
    for (const [field, value] of [
      ['payload', 'not bytes'],
      ['payloadSha256', 42],
      ['createdAt', 'yesterday'],
      ['modelVersion', '3'],
    ] as const) {
      writeFileSync(path, packr.pack({ ...envelope, [field]: value }));
      expect(await readCalibration(META), field).toMatchObject({ state: 'corrupted', reason: expect.stringContaining(field) });
    }
  });

  it('reports a checksummed payload that does not decode as corrupted', async () => {
    const path = await writeCalibration({ n: 1 }, META);
    const packr = new Packr({ moreTypes: true });
    const envelope = packr.unpack(readFileSync(path)) as Record<string, unknown>;
    const bad = Uint8Array.of(0x92, 0x01); // an array of 2 with only 1 element
    const { createHash } = await import('node:crypto');
    const sha = createHash('sha256').update(bad).digest('hex');
    writeFileSync(path, packr.pack({ ...envelope, payload: bad, payloadSha256: sha }));
    expect(await readCalibration(META)).toMatchObject({ state: 'corrupted', reason: expect.stringMatching(/payload does not decode/) });
  });
});
