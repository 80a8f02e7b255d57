// One flipped payload byte, or a payload edited by hand without updating the checksum, makes
// the file 'corrupted': its contents are never returned.

import { readFileSync, writeFileSync } from 'node:fs';
import { Packr } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { readCalibration, writeCalibration } from '../../src/cost/cache.js';
import { META, useTempCacheDir } from './cache-env.js';

describe('checksum', () => {
  useTempCacheDir();
  const payload = { coefficients: Float64Array.of(1, 2, 3, 4, 5, 6, 7, 8) };

  it('reports a flipped byte inside the payload as corrupted', async () => {
    const path = await writeCalibration(payload, META);
    const bytes = readFileSync(path);
    const inner = new Packr({ moreTypes: true }).unpack(bytes).payload as Uint8Array;
    const at = bytes.indexOf(Buffer.from(inner));
    expect(at).toBeGreaterThan(0);
    bytes[at + inner.length - 3]! ^= 0x01; // inside the last double: still decodable, wrong value
    writeFileSync(path, bytes);
    const found = await readCalibration(META);
    expect(found).toMatchObject({ state: 'corrupted', path, reason: expect.stringMatching(/checksum mismatch/) });
    expect(found).not.toHaveProperty('payload');
  });

  it('reports a hand-edited payload with the old checksum as corrupted', async () => {
    const path = await writeCalibration(payload, META);
    const packr = new Packr({ moreTypes: true });
    const envelope = packr.unpack(readFileSync(path)) as Record<string, unknown>;
    const edited = { coefficients: Float64Array.of(1, 2, 3, 4, 5, 6, 7, 9) };
    writeFileSync(path, packr.pack({ ...envelope, payload: new Packr({ moreTypes: true }).pack(edited) }));
    expect(await readCalibration(META)).toMatchObject({ state: 'corrupted', reason: expect.stringMatching(/checksum mismatch/) });
  });
});
