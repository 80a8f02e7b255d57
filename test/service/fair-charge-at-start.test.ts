// Start-time fair queuing with several jobs running at once: a job is charged to its tenant's
// virtual time when it starts (by what its tenant's jobs held lately), so jobs started one after
// another while the first still run alternate between tenants instead of all going to the tenant
// that queued first.

import { expect, it } from 'vitest';
import { FairScheduler } from '../../src/service/fair-scheduler.js';
import { testPolicy } from './test-policy.js';

const policy = testPolicy;

it('alternates tenants among jobs started while others still run, by weight', async () => {
  const s = new FairScheduler(policy({ a: {}, b: {}, c: {} }), ['cpu'], 4, () => 0);
  const started: string[] = [];
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const job = (tenant: string, label: string, wait?: Promise<void>) => ({
    tenant,
    kind: 'run',
    run: async () => {
      started.push(label);
      if (wait) await wait;
      return { value: label, usage: new Map([['cpu', 0.001]]) };
    },
  });
  // c's four jobs hold the four slots; a queues four jobs, then b four.
  const blockers = [1, 2, 3, 4].map((k) => s.submit('t', job('c', `c${k}`, held)).result);
  const rest: Promise<unknown>[] = [];
  for (let k = 1; k <= 4; k++) rest.push(s.submit('t', job('a', `a${k}`, held)).result);
  for (let k = 1; k <= 4; k++) rest.push(s.submit('t', job('b', `b${k}`, held)).result);
  release();
  await Promise.all([...blockers, ...rest]);
  // The slots free one at a time; each start is charged at once, so a and b take turns.
  expect(started.slice(4, 8)).toEqual(['a1', 'b1', 'a2', 'b2']);
});
