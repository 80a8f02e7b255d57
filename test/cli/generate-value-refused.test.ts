// A --generate value the generator refuses is a bad flag value (exit 2) naming the flag and the
// value, whether the spec does not parse or asks for more than the generator allows: a scale past
// the limit exited 1 without naming --generate.

import { expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

it('names --generate and its value for a size past the limit and a bad parameter, exit 2', async () => {
  const big = await runCli(['explore', '--generate', 'kronecker:scale=40']);
  expect(big.code).toBe(2);
  expect(big.err).toBe('dype: explore: --generate "kronecker:scale=40": kroneckerGraph: scale = 40 is above the limit of 30\n');
  const bad = await runCli(['run', '--generate', 'kronecker:scale=x']);
  expect(bad.code).toBe(2);
  expect(bad.err).toMatch(/^dype: run: --generate "kronecker:scale=x": parseGeneratorSpec: /);
});
