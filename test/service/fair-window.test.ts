// Under operator turns the dispatcher's slots are a window of jobs open at once: a tenant that
// comes when the first tenants' jobs fill the window, holding fewer than its weighted share of it,
// opens a job beyond the window at once instead of waiting for one of theirs to end. Where slots
// are the host's (whole jobs, one at a time), the window is never passed.

import { expect, it } from 'vitest';
import { FairScheduler } from '../../src/service/fair-scheduler.js';
import { testPolicy } from './test-policy.js';

const policy = (names: string[]) => testPolicy(Object.fromEntries(names.map((n) => [n, {}])));

async function startsBeforeRelease(fairWindow: boolean): Promise<string[]> {
  const s = new FairScheduler(policy(['first', 'late']), ['cpu'], 4, () => 0, { fairWindow });
  const started: string[] = [];
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const job = (tenant: string, k: number) => ({
    tenant,
    kind: 'run',
    run: async () => {
      started.push(`${tenant}${k}`);
      await held;
      return { value: k, usage: new Map([['cpu', 0.001]]) };
    },
  });
  const all: Promise<unknown>[] = [];
  for (let k = 1; k <= 6; k++) all.push(s.submit('t', job('first', k)).result);
  for (let k = 1; k <= 3; k++) all.push(s.submit('t', job('late', k)).result);
  await new Promise((r) => setImmediate(r));
  const before = [...started];
  release();
  await Promise.all(all);
  return before;
}

it('opens a late tenant its share of the window beyond it while the first tenant fills it', async () => {
  const before = await startsBeforeRelease(true);
  // The window of 4 is full of first's jobs; late, with 2 of 4 its share, opens two more.
  expect(before).toEqual(['first1', 'first2', 'first3', 'first4', 'late1', 'late2']);
});

it('keeps to the slots where they are the host (no fair window)', async () => {
  expect(await startsBeforeRelease(false)).toEqual(['first1', 'first2', 'first3', 'first4']);
});
