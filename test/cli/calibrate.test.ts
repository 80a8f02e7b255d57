// `dype calibrate` fits and stores a calibration (here for a simulated GPU alone, to stay fast),
// `--show` prints it, a missing or corrupted store is reported, and flags are checked.

import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { tempFolder } from '../support/temp.js';

const saved = process.env['DYPE_CACHE_DIR'];
let dir = '';
let systemFile = '';

beforeAll(() => {
  dir = tempFolder('dype-calibrate-');
  process.env['DYPE_CACHE_DIR'] = join(dir, 'cache');
  systemFile = join(dir, 'gpu.json');
  writeFileSync(
    systemFile,
    JSON.stringify({ name: 'gpu-only', devices: [{ name: 'gpu', backend: 'gpu-sim' }], links: [{ between: ['host', 'gpu'], profile: 'pcie-gen4-x16' }] }),
  );
});
afterAll(() => {
  if (saved === undefined) delete process.env['DYPE_CACHE_DIR'];
  else process.env['DYPE_CACHE_DIR'] = saved;
});

describe('dype calibrate', () => {
  it('--show says there is nothing yet', async () => {
    const r = await runCli(['calibrate', '--show']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/No usable calibration: .* is missing/);
  });

  it('calibrates, stores and shows the fit', async () => {
    const r = await runCli(['calibrate', '--quick', '--system', systemFile]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Calibrated gpu in [\d.]+ s \(quick\); stored in /);
    expect(r.out).toMatch(/gpu-sim\/h100-sxm\/\w+\s+spmm\s+\d+/);
    expect(readdirSync(join(dir, 'cache')).some((f) => f.endsWith('.msgpack'))).toBe(true);
    const show = await runCli(['calibrate', '--show', '--json']);
    const o = JSON.parse(show.out) as { state: string; calibration: { devices: { backend: string }[] } };
    expect(o.state).toBe('valid');
    expect(o.calibration.devices.map((d) => d.backend)).toEqual(['gpu-sim']);
  }, 60_000);

  it('reports a corrupted store instead of using it', async () => {
    const file = join(dir, 'cache', readdirSync(join(dir, 'cache')).find((f) => f.endsWith('.msgpack'))!);
    writeFileSync(file, 'not msgpack at all');
    const r = await runCli(['calibrate', '--show']);
    expect(r.out).toMatch(/is corrupted/);
  });

  it('rejects unknown flags with a suggestion', async () => {
    const r = await runCli(['calibrate', '--quik']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/did you mean --quick/);
  });
});
