// `dype help TOPIC` for a command that does not exist is a usage error with a suggestion, as
// `dype TOPIC` is: it printed the general help and exited 0.

import { expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

it('refuses an unknown topic with the closest command, exit 2', async () => {
  const r = await runCli(['help', 'explor']);
  expect(r.code).toBe(2);
  expect(r.out).toBe('');
  expect(r.err).toBe('dype: unknown command "explor" (did you mean explore?); see dype --help\n');
});

it("still prints a known command's help and the general help", async () => {
  const known = await runCli(['help', 'kernels']);
  expect(known.code).toBe(0);
  expect(known.out).toMatch(/^Usage: dype kernels/);
  const general = await runCli(['help']);
  expect(general.code).toBe(0);
  expect(general.out).toMatch(/^dype: data-aware scheduling/);
});
