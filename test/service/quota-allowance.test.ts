// A job's allowance under its tenant's quotas (service/quotas.ts): a device is refused once the
// use in the window reaches share x window, charges land in the tenant's records, the wait ends
// when the oldest records leave the window, and a reloaded policy applies at once.

import { expect, it } from 'vitest';
import { checkPolicy, type TenantPolicy } from '../../src/service/policy.js';
import { QuotaAllowance, quotaFreesIn, type UseRecord } from '../../src/service/quotas.js';

const tenant = (quotas: object): TenantPolicy => checkPolicy({ tenants: [{ name: 'q', token: 'token-of-the-quota-test', quotas }] }, 'test').tenants[0]!;

it('refuses a device once its window holds share x window seconds, and frees it as old records leave', () => {
  let policy = tenant({ gpu: { share: 0.5, window: 10 } });
  let now = 100;
  const recent: UseRecord[] = [];
  const a = new QuotaAllowance(
    () => policy,
    recent,
    () => now,
  );
  expect([...a.watched]).toEqual(['gpu']);
  a.charge('gpu', 2); // at 100
  now = 103;
  a.charge('gpu', 2.5); // at 103: 4.5 of 5 s
  a.charge('cgra', 9); // no quota there: not recorded
  expect(recent).toHaveLength(2);
  expect(a.refuses('gpu')).toBe(false);
  expect(a.refuses('cgra')).toBe(false);
  a.charge('gpu', 1); // 5.5 of 5 s
  expect(a.refuses('gpu')).toBe(true);
  expect(a.charged.get('gpu')).toBe(5.5);
  // Under the limit again once the 2 s charged at 100 leave the window (at 110).
  expect(a.retryIn()).toBeCloseTo(7, 12);
  expect(quotaFreesIn(policy, recent, 'gpu', now)).toBeCloseTo(7, 12);
  now = 110.001;
  expect(a.refuses('gpu')).toBe(false);
  expect(quotaFreesIn(policy, recent, 'gpu', now)).toBe(0);
  // A reloaded policy applies to the running job at once.
  policy = tenant({ gpu: { share: 0.1, window: 10 } });
  expect(a.refuses('gpu')).toBe(true);
  policy = tenant({});
  expect(a.refuses('gpu')).toBe(false);
  expect(quotaFreesIn(policy, recent, 'gpu', now)).toBe(Infinity);
});
