// Admission by rate and the memory quota: a tenant that submitted `rate.jobs` jobs in the last
// `rate.window` seconds is refused with a LimitError saying when to retry, until the window
// slides; a tenant's uploads past its `memoryBytes` are refused, and releasing data makes room.
// Both are policy fields, checked with the rest of the policy.

import { expect, it } from 'vitest';
import { FormatError, LimitError } from '../../src/errors.js';
import { generate } from '../../src/generators/index.js';
import { DataStore } from '../../src/service/data-store.js';
import { FairScheduler } from '../../src/service/fair-scheduler.js';
import { checkPolicy } from '../../src/service/policy.js';
import { matrixBytes } from '../../src/service/wire-values.js';

const tenant = (extra: object) => checkPolicy({ tenants: [{ name: 'a', token: 'token-number-0-of-the-test', ...extra }] }, 'test');

it('refuses jobs past the rate until the window slides', async () => {
  let clock = 0;
  const s = new FairScheduler(tenant({ rate: { jobs: 2, window: 10 } }), ['cpu'], 1, () => clock);
  const job = { tenant: 'a', kind: 'run', run: async () => ({ value: 0, usage: new Map([['cpu', 0]]) }) };
  await s.submit('serve.run', job).result;
  clock = 4;
  await s.submit('serve.run', job).result;
  clock = 9;
  expect(() => s.submit('serve.run', job)).toThrow(LimitError);
  expect(() => s.submit('serve.run', job)).toThrow('serve.run: tenant "a" submitted 2 jobs in the last 10 s, its rate limit (rate.jobs 2); retry in 1.000 s');
  clock = 10.5;
  await s.submit('serve.run', job).result;
  expect(s.status('a').tenants[0]!.refused).toBe(2);
});

it("refuses uploads past a tenant's memory quota, counting shared content in full", () => {
  const m1 = generate({ kind: 'kronecker', scale: 6, seed: 1 });
  const m2 = generate({ kind: 'kronecker', scale: 6, seed: 2 });
  const store = new DataStore(2 ** 30);
  const quota = matrixBytes(m1) + matrixBytes(m2) - 1;
  store.put('b', m2); // another tenant's copy of m2: shared, but a's quota still counts it
  const h1 = store.put('a', m1, quota).hash;
  expect(store.put('a', m1, quota).stored).toBe('shared'); // already a's: no new bytes
  expect(() => store.put('a', m2, quota)).toThrow(/tenant "a" holds \d+ bytes of data; \d+ more would pass its memory quota of \d+ bytes \(memoryBytes\)/);
  store.release('a', h1);
  expect(store.put('a', m2, quota).stored).toBe('shared');
});

it('checks the two fields with the rest of the policy', () => {
  expect(() => tenant({ rate: { jobs: 0, window: 1 }, memoryBytes: -1 })).toThrow(FormatError);
  expect(() => tenant({ rate: { jobs: 0, window: 1 }, memoryBytes: -1 })).toThrow(
    /tenants\[0\]\.memoryBytes: must be an integer number of bytes in \[1, 2\^50\], got -1\n {2}tenants\[0\]\.rate\.jobs: must be an integer in \[1, 1e9\], got 0/,
  );
  expect(() => tenant({ rate: { job: 3 } })).toThrow(/tenants\[0\]\.rate\.job: unknown field \(did you mean "jobs"\?\)/);
  expect(tenant({ rate: { jobs: 3, window: 2 }, memoryBytes: 1024 }).tenants[0]).toMatchObject({ rate: { jobs: 3, window: 2 }, memoryBytes: 1024 });
});
