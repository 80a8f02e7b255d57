// calibrate() checks its options before measuring anything.

import { describe, expect, it } from 'vitest';
import { calibrate } from '../../src/cost/calibrate.js';
import { buildSystem } from '../../src/devices/system.js';
import { InvalidArgumentError } from '../../src/errors.js';

const system = buildSystem({ devices: [{ name: 'cgra', backend: 'cgra-sim' }] });

describe('calibrate arguments', () => {
  it('names a misspelled option', async () => {
    await expect(calibrate(system, { quik: true } as never)).rejects.toThrow(/calibrate: unknown option "quik" \(did you mean "quick"\?\)/);
  });
  it('refuses an empty input list', async () => {
    await expect(calibrate(system, { inputs: [] })).rejects.toThrow(InvalidArgumentError);
  });
  it('stops when aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(calibrate(system, { quick: true, signal: ac.signal })).rejects.toThrow(/abort/i);
  });
});
