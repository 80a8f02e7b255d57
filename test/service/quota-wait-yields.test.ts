// A running job that must wait for its tenant's quota gives the host's slot to other tenants'
// jobs meanwhile, shows as waiting in the status, and takes the next free slot when the window
// frees its device; an abort during the wait ends it with the abort's reason and leaves the slot
// count whole. Jobs here call their allowance as a run does.

import { expect, it } from 'vitest';
import { AbortedError } from '../../src/errors.js';
import { FairScheduler, type JobContext } from '../../src/service/fair-scheduler.js';
import { checkPolicy } from '../../src/service/policy.js';

const policy = checkPolicy(
  {
    tenants: [
      { name: 'q', token: 'token-of-the-quota-tenant', quotas: { gpu: { share: 0.5, window: 0.06 } } },
      { name: 'free', token: 'token-of-the-free-tenant' },
    ],
  },
  'test',
);

it('gives the slot to another job while waiting for the quota, and resumes first when it frees', async () => {
  const s = new FairScheduler(policy, ['cpu', 'gpu'], 1);
  const events: string[] = [];
  let waiting: string | undefined;
  const quota = s.submit('t', {
    tenant: 'q',
    kind: 'run',
    run: async (ctx: JobContext) => {
      // A piece filled the quota (30 ms of 0.5 x 60 ms): the run may not use the GPU for a while.
      ctx.allowance!.charge('gpu', 0.03);
      expect(ctx.allowance!.refuses('gpu')).toBe(true);
      events.push('q waits');
      await ctx.allowance!.wait!(ctx.signal);
      events.push('q resumes');
      return { value: 'q', usage: new Map([['gpu', 0.03]]) };
    },
  });
  // Queued behind the quota job: it runs while that one waits.
  const other = s.submit('t', {
    tenant: 'free',
    kind: 'run',
    run: async () => {
      events.push('free runs');
      waiting = s.status('q').jobs[0]?.state;
      return { value: 'free', usage: new Map([['cpu', 0.001]]) };
    },
  });
  await Promise.all([quota.result, other.result]);
  expect(events).toEqual(['q waits', 'free runs', 'q resumes']);
  expect(waiting).toBe('waiting for quota');
  expect(s.status('q').running).toBe(0);
  expect(s.idle).toBe(true);
});

it('ends a waiting job on cancel, with the slot count whole after', async () => {
  const s = new FairScheduler(policy, ['cpu', 'gpu'], 1);
  const job = s.submit('t', {
    tenant: 'q',
    kind: 'run',
    run: async (ctx: JobContext) => {
      ctx.allowance!.charge('gpu', 1);
      await ctx.allowance!.wait!(ctx.signal);
      return { value: 'never', usage: new Map() };
    },
  });
  await new Promise((r) => setTimeout(r, 10));
  s.cancel('t', 'q', job.id);
  await expect(job.result).rejects.toThrow(AbortedError);
  expect(s.status('q').running).toBe(0);
  // The slot is free again: the next job starts.
  const next = s.submit('t', { tenant: 'free', kind: 'run', run: async () => ({ value: 1, usage: new Map() }) });
  await expect(next.result).resolves.toBe(1);
});
