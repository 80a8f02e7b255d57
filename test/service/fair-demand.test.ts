// Fair shares are charged by the work a job asked for (its `demand`: its operators each on their
// fastest device), not by the seconds of the devices the shared backlog sent it to. Charged by
// device seconds, a tenant whose jobs were crowded onto a slow device paid ten times over for the
// same work and waited behind the others (the load bench's Jain index, 0.79 by work, came from this).

import { expect, it } from 'vitest';
import { FairScheduler } from '../../src/service/fair-scheduler.js';
import { Interleaver } from '../../src/service/interleaver.js';
import { MachineTimeline } from '../../src/service/machine-timeline.js';
import { testPolicy } from './test-policy.js';

const policy = (names: string[]) => testPolicy(Object.fromEntries(names.map((n) => [n, {}])));

/** Order of starts when `slow`'s jobs ran on a device 10x slower than `fast`'s, the same work each. */
async function order(withDemand: boolean): Promise<string[]> {
  const s = new FairScheduler(policy(['slow', 'fast']), ['cpu', 'gpu'], 1, () => 0);
  const started: string[] = [];
  const job = (tenant: string, k: number) => ({
    tenant,
    kind: 'run',
    run: async () => {
      started.push(`${tenant}${k}`);
      const usage = new Map([tenant === 'slow' ? ['cpu', 0.01] : ['gpu', 0.001]] as [string, number][]);
      return { value: k, usage, ...(withDemand ? { demand: 0.001 } : {}) };
    },
  });
  const all: Promise<unknown>[] = [];
  for (let k = 1; k <= 6; k++) all.push(s.submit('t', job('slow', k)).result, s.submit('t', job('fast', k)).result);
  await Promise.all(all);
  return started;
}

it('takes tenants in turn when their jobs asked for the same work, wherever the jobs ran', async () => {
  const started = await order(true);
  // Both are charged 1 ms a job: they alternate.
  const tenants = started.map((l) => l.replace(/\d+$/, ''));
  for (let k = 0; k + 1 < tenants.length; k += 2) expect(new Set(tenants.slice(k, k + 2))).toEqual(new Set(['slow', 'fast']));
});

it('falls back to device seconds for a job that states no demand', async () => {
  const started = await order(false);
  // slow is charged 10 ms a job against fast's 1: fast's six go while slow waits after its first.
  expect(started.slice(0, 8).filter((l) => l.startsWith('slow')).length).toBeLessThanOrEqual(2);
});

it('charges operator turns by the work each operator asked for, under operator turns too', async () => {
  const il = new Interleaver(new MachineTimeline(['cpu', 'gpu'], ['cpu', 'gpu'], 'shared'), true);
  const order: string[] = [];
  const job = async (tenant: string, seconds: number) => {
    const lane = il.open({ tenant, priority: 0, weight: 1, arrival: 0 });
    for (let k = 1; k <= 3; k++) {
      await lane.enter(0, 0, {});
      order.push(`${tenant}${k}`);
      lane.leave(0, { start: 0, finish: seconds, seconds, demand: 1, devices: {}, busyUntil: {} });
    }
    lane.close();
  };
  // slow's operators held a device 10 s each, fast's 1 s, both asked for 1 s: they alternate.
  await Promise.all([job('slow', 10), job('fast', 1)]);
  expect(order).toEqual(['slow1', 'fast1', 'slow2', 'fast2', 'slow3', 'fast3']);
});
