// Found by the description fuzz: a param of 1e308 reached the dense generator, whose error named
// denseFeatures rather than bindWorkload. Dense inputs are now sized in bindWorkload's name
// (largest index, typed-array limit, memory budget) before anything is allocated.

import { expect, it } from 'vitest';
import { LimitError } from '../../src/errors.js';
import { kroneckerGraph } from '../../src/generators/index.js';
import { bindWorkload } from '../../src/workloads/bind.js';
import { workload } from '../../src/workloads/library.js';

const g = kroneckerGraph({ scale: 5, seed: 1 });

it('an absurd dense size from a param is refused by bindWorkload, naming the input', () => {
  expect(() => bindWorkload(workload('spmm'), g, { params: { k: 1e308 } })).toThrow(/^bindWorkload: input X: cols must be in \[0, 2147483647\], got 1e\+308/);
  expect(() => bindWorkload(workload('spmm'), g, { params: { k: 2 ** 31 - 1 } })).toThrow(LimitError);
  expect(() => bindWorkload(workload('spmm'), g, { params: { k: 2 ** 31 - 1 } })).toThrow(/^bindWorkload: input X: a 32x2147483647 dense matrix/);
});
