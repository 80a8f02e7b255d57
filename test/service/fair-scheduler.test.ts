// The one dispatcher: weighted-fair order between tenants, priority first, admission limits,
// timeouts and cancels as typed errors, and quotas that plan a tenant's next jobs without the
// device it used past its share. Jobs here are timers, so the order is all that is tested.

import { expect, it } from 'vitest';
import { AbortedError, AccessError, LimitError, SessionClosedError } from '../../src/errors.js';
import { FairScheduler, type JobContext } from '../../src/service/fair-scheduler.js';
import { testPolicy } from './test-policy.js';

const policy = testPolicy;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A job of `ms` that records its tenant when it starts, and uses `device` for its length. */
function job(order: string[], tenant: string, ms: number, device = 'cpu', seen?: (ctx: JobContext) => void) {
  return {
    tenant,
    kind: 'run',
    run: async (ctx: JobContext) => {
      order.push(tenant);
      seen?.(ctx);
      await sleep(ms);
      return { value: tenant, usage: new Map([[device, ms / 1000]]) };
    },
  };
}

it('shares by weight: a tenant of weight 4 gets four jobs for each one of weight 1', async () => {
  // A clock that each job moves on by its length, so the order does not depend on the machine's load.
  let clock = 0;
  const s = new FairScheduler(policy({ heavy: { weight: 4 }, light: { weight: 1 } }), ['cpu'], 1, () => clock);
  const order: string[] = [];
  const unit = (tenant: string) => ({
    tenant,
    kind: 'run',
    run: async () => {
      order.push(tenant);
      await sleep(1);
      clock += 1;
      return { value: tenant, usage: new Map([['cpu', 1]]) };
    },
  });
  const all: Promise<unknown>[] = [];
  // A blocker first, so both backlogs are queued before the dispatcher chooses.
  all.push(s.submit('t', unit('light')).result);
  for (let i = 0; i < 12; i++) {
    all.push(s.submit('t', unit('heavy')).result);
    all.push(s.submit('t', unit('light')).result);
  }
  await Promise.all(all);
  // Virtual times: heavy gains 1/4 a job, light 1; ties go to the earlier job.
  expect(order.slice(1, 11).join(' ')).toBe('heavy heavy heavy heavy light heavy heavy heavy heavy light');
  expect(s.status('heavy').tenants.map((t) => [t.name, t.servedSeconds])).toEqual([
    ['heavy', 12],
    ['light', 13],
  ]);
});

it('runs higher priority first and refuses past maxQueued, while draining, and for unknown tenants', async () => {
  const s = new FairScheduler(policy({ low: { priority: -1, maxQueued: 2 }, high: { priority: 5 } }), ['cpu']);
  const order: string[] = [];
  const a = s.submit('t', job(order, 'low', 20)).result;
  const b = s.submit('t', job(order, 'low', 5)).result;
  expect(() => s.submit('serve.run', job(order, 'low', 5))).toThrow(LimitError);
  expect(() => s.submit('serve.run', job(order, 'low', 5))).toThrow(/tenant "low" has 2 jobs queued or running, its limit \(maxQueued 2\)/);
  const c = s.submit('t', job(order, 'high', 5)).result;
  expect(() => s.submit('t', job(order, 'nobody', 5))).toThrow(AccessError);
  const drained = s.drain();
  expect(() => s.submit('t', job(order, 'high', 5))).toThrow(SessionClosedError);
  await Promise.all([a, b, c, drained]);
  expect(order).toEqual(['low', 'high', 'low']);
  expect(s.status('low').tenants.find((t) => t.name === 'low')!.refused).toBe(2);
});

it("cancels queued and running jobs, times them out, and refuses other tenants' cancels", async () => {
  const s = new FairScheduler(policy({ a: {}, b: {} }), ['cpu']);
  let stopped: unknown;
  const running = s.submit('t', {
    tenant: 'a',
    kind: 'run',
    run: (ctx) =>
      new Promise<never>((_, reject) => {
        ctx.signal.addEventListener('abort', () => {
          stopped = ctx.signal.reason;
          reject(ctx.signal.reason);
        });
      }),
  });
  const queued = s.submit('t', job([], 'a', 5));
  expect(() => s.cancel('serve.cancel', 'b', running.id)).toThrow(AccessError);
  s.cancel('serve.cancel', 'a', queued.id);
  await expect(queued.result).rejects.toThrow(AbortedError);
  const timed = s.submit('serve.run', { ...job([], 'b', 5), timeout: 0.05 });
  await expect(timed.result).rejects.toThrow(/reached its timeout of 0.05 s while queued/);
  s.cancel('serve.cancel', 'a', running.id);
  await expect(running.result).rejects.toThrow(AbortedError);
  expect(stopped).toBeInstanceOf(AbortedError);
  expect(() => s.cancel('serve.cancel', 'a', running.id)).toThrow(/no job "j1"/);
});

it("plans a tenant over its quota without that device, and shows each tenant's share of each device", async () => {
  const s = new FairScheduler(policy({ q: { quotas: { gpu: { share: 0.1, window: 10 } } }, free: {} }), ['cpu', 'gpu']);
  const seen: (readonly string[])[] = [];
  await s.submit(
    't',
    job([], 'q', 5, 'gpu', (c) => seen.push(c.exclude)),
  ).result;
  await s.submit('t', job([], 'free', 15, 'gpu')).result;
  // 5 ms of gpu is under 1 s (10% of 10 s): still allowed.
  expect(seen).toEqual([[]]);
  await s.submit('t', {
    tenant: 'q',
    kind: 'run',
    run: async (c) => {
      seen.push(c.exclude);
      return { value: 0, usage: new Map([['gpu', 2]]) };
    },
  }).result;
  await s.submit(
    't',
    job([], 'q', 1, 'cpu', (c) => seen.push(c.exclude)),
  ).result;
  expect(seen[2]).toEqual(['gpu']);
  const st = s.status('q');
  const gpu = st.devices.find((d) => d.name === 'gpu')!;
  expect(gpu.busySeconds).toBeCloseTo(2.02, 5);
  expect(gpu.shares['q']! + gpu.shares['free']!).toBeCloseTo(1, 9);
  expect(st.tenants.find((t) => t.name === 'q')!.devices['gpu']!.quota!.used).toBeGreaterThan(0.1);
  // A job that must use the gpu waits while the tenant is over quota there.
  const waiting = s.submit('t', { ...job([], 'q', 1, 'gpu'), needs: ['gpu'], timeout: 0.1 });
  await expect(waiting.result).rejects.toThrow(/timeout of 0.1 s while queued/);
});
