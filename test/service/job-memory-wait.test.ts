// A job past its tenant's memory quota because of the tenant's other running jobs waits for them
// to give their bytes back, with its host slot given to other jobs meanwhile (status: `waiting for
// memory`), instead of being refused; one that would pass the quota beside the tenant's data alone
// can never run and is refused at once; an abort ends a wait with the abort's reason, nothing held.

import { expect, it } from 'vitest';
import { AbortedError, LimitError } from '../../src/errors.js';
import { FairScheduler, type JobContext } from '../../src/service/fair-scheduler.js';
import { JobMemory } from '../../src/service/job-memory.js';
import { testPolicy } from './test-policy.js';

const limit = () => ({ quota: 1000, dataBytes: 300 });
const aside = { aside: (wait: () => Promise<void>) => wait() };
const settled = async (p: Promise<unknown>): Promise<boolean> => {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((r) => setTimeout(r, 5));
  return done;
};

it('waits for the tenant’s running jobs to give bytes back, then runs', async () => {
  const memory = new JobMemory();
  let release: () => void = () => undefined;
  const first = memory.during('serve.run', 'a', 500, limit, () => new Promise<void>((r) => (release = r)));
  const second = memory.during('serve.run', 'a', 400, limit, async () => memory.held('a'), aside);
  expect(await settled(second)).toBe(false); // 300 + 500 + 400 > 1000: it waits, not refused
  expect(memory.held('a')).toBe(500);
  release();
  await first;
  expect(await second).toBe(400); // it ran once the first gave its 500 back
  expect(memory.held('a')).toBe(0);
});

it('refuses at once a job that the tenant’s data alone leaves no room for', async () => {
  const memory = new JobMemory();
  const job = memory.during('serve.run', 'a', 701, limit, async () => 'ran', aside);
  await expect(job).rejects.toThrow(LimitError);
  await expect(memory.during('serve.run', 'a', 701, limit, async () => 'ran', aside)).rejects.toThrow(
    'serve.run: tenant "a" holds 300 bytes of data; this job computes 701 bytes more, past its memory quota of 1000 bytes (memoryBytes) even with no other job running',
  );
});

it('an abort ends the wait with its reason, and the job never holds its bytes', async () => {
  const memory = new JobMemory();
  let release: () => void = () => undefined;
  const first = memory.during('serve.run', 'a', 500, limit, () => new Promise<void>((r) => (release = r)));
  const controller = new AbortController();
  let ran = false;
  const waiting = memory.during(
    'serve.run',
    'a',
    400,
    limit,
    async () => {
      ran = true;
    },
    { ...aside, signal: controller.signal },
  );
  controller.abort(new AbortedError('cancelled'));
  await expect(waiting).rejects.toThrow('cancelled');
  release();
  await first;
  expect(ran).toBe(false);
  expect(memory.held('a')).toBe(0);
});

it('gives the host slot to other jobs while it waits, shown as waiting for memory', async () => {
  const s = new FairScheduler(testPolicy({ a: {}, b: {} }), ['cpu'], 2);
  const memory = new JobMemory();
  const events: string[] = [];
  let release: () => void = () => undefined;
  let shown: string | undefined;
  const holder = s.submit('t', {
    tenant: 'a',
    kind: 'run',
    run: async () => {
      await memory.during('serve.run', 'a', 500, limit, () => new Promise<void>((r) => (release = r)));
      events.push('first ends');
      return { value: 1, usage: new Map() };
    },
  });
  const waiter = s.submit('t', {
    tenant: 'a',
    kind: 'run',
    run: async (ctx: JobContext) => {
      events.push('second waits');
      await memory.during('serve.run', 'a', 400, limit, async () => events.push('second runs'), { aside: ctx.waitAside!, signal: ctx.signal });
      return { value: 2, usage: new Map() };
    },
  });
  await new Promise((r) => setTimeout(r, 5));
  // Both slots were taken; the waiter gave its own up, so tenant b's job starts now.
  const other = s.submit('t', {
    tenant: 'b',
    kind: 'run',
    run: async () => {
      events.push('b runs');
      shown = s.status('a').jobs.find((j) => j.id === waiter.id)?.state;
      return { value: 3, usage: new Map() };
    },
  });
  await other.result;
  expect(shown).toBe('waiting for memory');
  release();
  await Promise.all([holder.result, waiter.result]);
  expect(events).toEqual(['second waits', 'b runs', 'first ends', 'second runs']);
  expect(s.idle).toBe(true);
});
