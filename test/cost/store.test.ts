// The stored calibration: missing, valid, merged and corrupted files, and what the cost model
// does with each (calibrated, or uncalibrated with the reason; a corrupted file is never trusted).

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CalibrationPayload, deviceKey, MODEL_VERSION } from '../../src/cost/calibration.js';
import { defaultCoefficients } from '../../src/cost/defaults.js';
import { loadCostModel, readStoredCalibration, saveCalibration } from '../../src/cost/store.js';
import { buildSystem } from '../../src/devices/system.js';

const system = buildSystem({
  devices: [
    { name: 'cpu', backend: 'cpu' },
    { name: 'cgra', backend: 'cgra-sim' },
  ],
});
const saved = process.env['DYPE_CACHE_DIR'];
let dir = '';

function payloadFor(names: string[]): CalibrationPayload {
  return {
    modelVersion: MODEL_VERSION,
    createdAt: new Date().toISOString(),
    quick: true,
    seconds: 1,
    devices: system.devices
      .filter((d) => names.includes(d.name))
      .map((d) => {
        const c = defaultCoefficients(d).spmm;
        const fit = { time: [...c.time], energy: [...c.energy], timeMape: 0.05, energyMape: 0.06, timeSpread: 0.1, energySpread: 0.12, samples: 20 };
        return { key: deviceKey(d), backend: d.backend, profile: d.spec.name, operators: { spmm: fit } };
      }),
  };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'dype-cache-'));
  process.env['DYPE_CACHE_DIR'] = dir;
});
afterAll(() => {
  if (saved === undefined) delete process.env['DYPE_CACHE_DIR'];
  else process.env['DYPE_CACHE_DIR'] = saved;
  rmSync(dir, { recursive: true, force: true });
});

describe('stored calibration', () => {
  it('is missing at first, and the model says to run dype calibrate', async () => {
    expect((await readStoredCalibration()).state).toBe('missing');
    const m = await loadCostModel(system);
    const s = m.state('cpu');
    expect(s.state).toBe('uncalibrated');
    expect(s.state === 'uncalibrated' && s.reason).toMatch(/dype calibrate/);
  });

  it('round-trips and merges device entries', async () => {
    await saveCalibration(payloadFor(['cpu']));
    await saveCalibration(payloadFor(['cgra']));
    const r = await readStoredCalibration();
    expect(r.state).toBe('valid');
    expect(r.state === 'valid' && r.payload.devices.map((d) => d.backend).sort()).toEqual(['cgra-sim', 'cpu']);
    const m = await loadCostModel(system);
    expect(m.state('cpu').state).toBe('calibrated');
    expect(m.state('cgra').state).toBe('calibrated');
  });

  it('never trusts a corrupted file, and rebuilding replaces it', async () => {
    const file = join(dir, readdirSync(dir).find((f) => f.endsWith('.msgpack'))!);
    const bytes = readFileSync(file);
    bytes[bytes.length - 5] = bytes[bytes.length - 5]! ^ 0xff;
    writeFileSync(file, bytes);
    const r = await readStoredCalibration();
    expect(r.state).toBe('corrupted');
    const m = await loadCostModel(system);
    const s = m.state('cpu');
    expect(s.state === 'uncalibrated' && s.reason).toMatch(/corrupted/);
    await saveCalibration(payloadFor(['cpu']));
    expect((await readStoredCalibration()).state).toBe('valid');
  });
});
