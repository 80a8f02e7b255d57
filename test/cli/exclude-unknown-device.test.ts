// --exclude is checked against the system's devices: an unknown name is a usage error that names
// the flag, the value and the devices (it named System.device and "system detected"), and a list
// that leaves no device is a usage error too (it failed with exit code 1).

import { expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const SMALL = ['--generate', 'kronecker:scale=8,seed=1', '--no-plot'];

it('refuses a device the system does not have, naming --exclude, the value and the devices', async () => {
  const r = await runCli(['explore', ...SMALL, '--exclude', 'gpu,tpu']);
  expect(r.code).toBe(2);
  // The detected devices differ where a CUDA GPU answers: the list is checked for the CPU alone.
  expect(r.err).toMatch(/^dype: explore: --exclude names no device of the detected system: "tpu" \(its devices: [^)]*\bcpu\b[^)]*\)\n$/);
});

it('refuses a list that leaves no device to plan on', async () => {
  const all = JSON.parse((await runCli(['system', '--json'])).out).devices.map((d: { name: string }) => d.name) as string[];
  const r = await runCli(['run', ...SMALL, '--no-trace', '--exclude', all.join(',')]);
  expect(r.code).toBe(2);
  expect(r.err).toBe(`dype: run: --exclude ${all.join(',')} leaves no device to plan on (the devices of the detected system: ${all.join(', ')})\n`);
});
