// A flag given without its value (`dype explore --data` at the end of the line) is refused as
// "--data needs a value", in the house style: it printed parseArgs' own
// "Option '--data <value>' argument missing".

import { expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

it('names the flag that needs a value, exit 2', async () => {
  const r = await runCli(['explore', '--data']);
  expect(r.code).toBe(2);
  expect(r.err).toBe('dype: explore: --data needs a value; see dype explore --help\n');
});

it('holds for every command', async () => {
  const r = await runCli(['kernels', '--k']);
  expect(r.code).toBe(2);
  expect(r.err).toBe('dype: kernels: --k needs a value; see dype kernels --help\n');
});
