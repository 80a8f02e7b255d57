// The dispatcher under replayed arrivals and the exclusive baseline: a job starts only once the
// machine has reached its arrival (the horizon), `fifo` takes jobs in arrival order whatever the
// tenant, and a tenant's fair share is of the devices' time (device seconds / weight, for jobs that
// state no demand), not of the host's wall time.

import { expect, it } from 'vitest';
import { FairScheduler } from '../../src/service/fair-scheduler.js';
import { testPolicy } from './test-policy.js';

const policy = testPolicy;

/** A job that records `label` when it starts and reports `seconds` on the cpu. */
const job = (order: string[], tenant: string, label: string, arrival: number, seconds = 1) => ({
  tenant,
  kind: 'run',
  arrival,
  run: async () => {
    order.push(label);
    return { value: label, usage: new Map([['cpu', seconds]]) };
  },
});

it('starts replayed jobs in arrival order while the machine has not reached the later ones', async () => {
  let machineFree = 0;
  const s = new FairScheduler(policy({ a: {}, b: {} }), ['cpu'], 1, () => 0, { horizon: () => machineFree });
  const order: string[] = [];
  // A blocker holds the one slot while the others are queued.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const blocker = s.submit('t', {
    tenant: 'b',
    kind: 'run',
    arrival: 0,
    run: async () => {
      await held;
      return { value: 0, usage: new Map([['cpu', 0]]) };
    },
  });
  // b's job arrives at 5, a's at 1 and 2: the horizon (0) reaches none, so the earliest goes first,
  // although b has had less service; a tenant's own jobs run in arrival order even when sent out of order.
  const all = [s.submit('t', job(order, 'b', 'b5', 5)).result, s.submit('t', job(order, 'a', 'a2', 2)).result, s.submit('t', job(order, 'a', 'a1', 1)).result];
  release();
  await Promise.all([blocker.result, ...all]);
  expect(order).toEqual(['a1', 'a2', 'b5']);
  machineFree = 10;
  const later: string[] = [];
  // With the machine busy until 10, all three are waiting: the fair order decides, not the arrival.
  await Promise.all([
    s.submit('t', job(later, 'a', 'a6', 6)).result,
    s.submit('t', job(later, 'a', 'a7', 7)).result,
    s.submit('t', job(later, 'b', 'b8', 8)).result,
  ]);
  expect(later[0]).toBe('a6');
  expect(later.slice(1)).toEqual(['b8', 'a7']);
});

it('takes jobs first come first served in fifo order, whatever their tenant or priority', async () => {
  const s = new FairScheduler(policy({ low: { priority: -5 }, high: { priority: 5 } }), ['cpu'], 1, () => 100, { order: 'fifo' });
  const order: string[] = [];
  await Promise.all([
    s.submit('t', job(order, 'high', 'h3', 3)).result,
    s.submit('t', job(order, 'low', 'l1', 1)).result,
    s.submit('t', job(order, 'high', 'h2', 2)).result,
  ]);
  // h3 found the slot free and started at once; the rest go by arrival, not priority.
  expect(order).toEqual(['h3', 'l1', 'h2']);
});

it("advances a tenant's fair share by the device seconds its jobs held, divided by its weight", async () => {
  const s = new FairScheduler(policy({ big: {}, small: {} }), ['cpu'], 1, () => 0);
  const order: string[] = [];
  // big's first job holds the cpu for 4 s, small's for 1 s each: small gets the next four turns.
  const all = [s.submit('t', job(order, 'big', 'B1', 0, 4)).result];
  for (let i = 1; i <= 2; i++) all.push(s.submit('t', job(order, 'big', `B${i + 1}`, 0, 4)).result);
  for (let i = 1; i <= 5; i++) all.push(s.submit('t', job(order, 'small', `S${i}`, 0, 1)).result);
  await Promise.all(all);
  expect(order.join(' ')).toBe('B1 S1 S2 S3 S4 B2 S5 B3');
});
