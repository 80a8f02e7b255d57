// Found by the options fuzz: bindWorkload's seed was folded into text unchecked, so a Symbol
// leaked "TypeError: Cannot convert a Symbol value to a string" and an object seeded the
// generated inputs from "[object Object]". It is now checked like every other seed (a string is
// accepted too, as by the generators).

import { expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors.js';
import { kroneckerGraph } from '../../src/generators/index.js';
import { bindWorkload } from '../../src/workloads/bind.js';
import { workload } from '../../src/workloads/library.js';

const g = kroneckerGraph({ scale: 5, seed: 1 });

it('refuses a seed that is neither a non-negative integer nor a string, naming bindWorkload', () => {
  for (const seed of [Symbol('s'), {}, -1, 1.5, NaN]) {
    expect(() => bindWorkload(workload('gcn'), g, { seed: seed as never })).toThrow(InvalidArgumentError);
    expect(() => bindWorkload(workload('gcn'), g, { seed: seed as never })).toThrow(/^bindWorkload: seed must be an integer in \[0, \d+\] or a string/);
  }
  expect(bindWorkload(workload('gcn'), g, { seed: 7 }).ops.length).toBeGreaterThan(0);
});
