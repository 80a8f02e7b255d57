// `dype system` lists the detected or given system, marks simulated devices, shows sources with
// --params, gives one JSON object with --json, and refuses bad files and flags cleanly.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../../src/devices/backends/index.js';
import { runCli } from '../support/cli.js';
import { tempFolder } from '../support/temp.js';

describe('dype system', () => {
  it('lists every detected device and every backend', async () => {
    const r = await runCli(['system']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/System: detected/);
    expect(r.out).toMatch(/^cpu\s+cpu\s+server-core\s+measured/m);
    for (const b of BACKENDS.keys()) expect(r.out).toMatch(new RegExp(`^  ${b}\\s+(available|not available)`, 'm'));
  });

  it('--params shows each number with its source', async () => {
    const r = await runCli(['system', '--params']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/activeWattsPerCore\s+3\.75\s+W\s+AMD EPYC 9654/);
  });

  it('--json prints one object with devices, links and backends', async () => {
    const r = await runCli(['system', '--json']);
    expect(r.code).toBe(0);
    const o = JSON.parse(r.out) as { devices: { name: string; simulated: boolean; spec: { params: object } }[]; links: unknown[]; backends: unknown[] };
    expect(o.devices.find((d) => d.name === 'cpu')?.simulated).toBe(false);
    expect(o.backends.length).toBe(BACKENDS.size);
    expect(Array.isArray(o.links)).toBe(true);
  });

  it('reads a system file', async () => {
    const dir = tempFolder('dype-system-');
    const file = join(dir, 'box.json');
    writeFileSync(file, JSON.stringify({ name: 'box', devices: [{ name: 'main', backend: 'cpu' }] }));
    const r = await runCli(['system', '--system', file]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/System: box/);
    expect(r.out).toMatch(/^main\s+cpu/m);
  });

  it('fails with one line naming the field of a bad system file', async () => {
    const dir = tempFolder('dype-system-');
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ devices: [{ name: 'x', backend: 'gpu-simm' }] }));
    const r = await runCli(['system', '--system', file]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/devices\[0\]\.backend: "gpu-simm" is not a backend/);
    expect(r.err.trim().split('\n').length).toBe(1);
  });

  it('reports a missing file and unknown flags', async () => {
    expect((await runCli(['system', '--system', '/no/such/file.json'])).code).toBe(1);
    const r = await runCli(['system', '--parms']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/did you mean --params/);
  });
});
