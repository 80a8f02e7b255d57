// `--policy` (the library's option name, or a slip of it: `--polcy`) points to --objective and
// its values: it was refused with no hint, since no flag is spelled close to it.

import { expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const HINT =
  "(did you mean --objective? the library's policy 'min-time', 'min-energy' or 'min-edp' is --objective time, energy or edp); see dype explore --help\n";

it('points --policy and --polcy to --objective, exit 2', async () => {
  for (const flag of ['--policy', '--polcy']) {
    const r = await runCli(['explore', flag, 'min-time', '--no-plot']);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`dype: explore: unknown option ${flag} ${HINT}`);
  }
});

it('gives no such hint where the command has no --objective', async () => {
  const r = await runCli(['kernels', '--policy', 'min-time']);
  expect(r.code).toBe(2);
  expect(r.err).toBe('dype: kernels: unknown option --policy; see dype kernels --help\n');
});
