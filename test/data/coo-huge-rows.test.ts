// Found by the CSR fuzz as a hang: cooToCsr({ rows: 2^31 - 1, ... }) with a couple of entries
// allocated per-row arrays of 2^31 entries and swept them. The row arrays are now priced against
// the memory budget first, so such a request is refused at once with a LimitError.

import { afterEach, expect, it } from 'vitest';
import { cooToCsr } from '../../src/data/coo.js';
import { LimitError } from '../../src/errors.js';
import { setMemoryBudget } from '../../src/limits.js';

afterEach(() => setMemoryBudget(undefined));

it('refuses a row count whose row arrays exceed the memory budget, before allocating', () => {
  const coo = { rows: 2 ** 31 - 1, cols: 7, rowIdx: Int32Array.of(5, 0), colIdx: Int32Array.of(0, 4) };
  expect(() => cooToCsr(coo)).toThrow(LimitError);
  expect(() => cooToCsr(coo)).toThrow(/^cooToCsr: a 2147483647x7 matrix of 2 entries needs 32\.0 GiB/);
  setMemoryBudget(2 ** 20);
  expect(() => cooToCsr({ ...coo, rows: 100_000 })).toThrow(/^cooToCsr: a 100000x7 matrix of 2 entries needs 1\.5 MiB/);
  expect(cooToCsr({ ...coo, rows: 10 }).nnz).toBe(2);
});
