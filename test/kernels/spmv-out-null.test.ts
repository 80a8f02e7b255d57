// Found by the options fuzz: spmv(a, x, { out: null }) leaked "TypeError: Cannot read properties
// of null (reading 'constructor')" instead of refusing the option by name.

import { expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors.js';
import { erdosRenyiGraph } from '../../src/generators/index.js';
import { spmv } from '../../src/kernels/spmv.js';

it('refuses out: null with an InvalidArgumentError naming spmv', async () => {
  const a = erdosRenyiGraph({ n: 10, m: 20, seed: 1, directed: true });
  const e = await spmv(a, new Float64Array(10), { out: null as never }).catch((x: unknown) => x);
  expect(e).toBeInstanceOf(InvalidArgumentError);
  expect((e as Error).message).toMatch(/^spmv: out must be a Float64Array of length 10, got null/);
});
