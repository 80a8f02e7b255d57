// The operator interleaver's discrete-event order: a turn goes to the operator ready earliest on
// the machine's clock, only once every open job has said what it runs next (a job still planning
// holds the others back), one at a time; a job's placement moves the machine's free times; the
// work reserved ahead of a job is that of higher priority and of equal priority started earlier.

import { describe, expect, it } from 'vitest';
import type { GateTurn } from '../../src/executor/gate.js';
import { Interleaver } from '../../src/service/interleaver.js';
import { MachineTimeline } from '../../src/service/machine-timeline.js';

const machine = () => new MachineTimeline(['gpu', 'cgra', 'host->gpu', 'gpu->host'], ['gpu', 'cgra'], 'shared');
const tick = () => new Promise<void>((r) => setImmediate(r));

describe('the operator interleaver', () => {
  it('gives the earliest-ready operator the turn once every open job is waiting, one at a time', async () => {
    const m = machine();
    const il = new Interleaver(m, true);
    const a = il.open({ tenant: 'a', priority: 0, weight: 1, arrival: 0 });
    const b = il.open({ tenant: 'b', priority: 0, weight: 1, arrival: 0 });
    const order: string[] = [];
    const ta = a.enter(0, 5, {}).then((t) => {
      order.push('a');
      return t;
    });
    await tick();
    await tick();
    // b has not said what it runs first: a waits, though nothing else is waiting.
    expect(order).toEqual([]);
    expect(il.clock).toBe(5);
    const tb = b.enter(0, 3, {}).then((t) => {
      order.push('b');
      return t;
    });
    const turnB: GateTurn = await tb;
    expect(order).toEqual(['b']);
    expect(turnB.free['gpu']).toBe(0);
    expect(turnB.elastic).toBe(true);
    // Until b leaves, a does not move; b's operator held the GPU until 4.
    await tick();
    await tick();
    expect(order).toEqual(['b']);
    b.leave(0, { start: 3, finish: 4, seconds: 1, demand: 1, devices: { gpu: 1 }, busyUntil: { gpu: 4 } });
    b.close();
    const turnA = await ta;
    expect(order).toEqual(['b', 'a']);
    expect(turnA.free['gpu']).toBe(4);
    a.leave(0, { start: 5, finish: 6, seconds: 1, demand: 1, devices: { cgra: 1 }, busyUntil: { cgra: 6 } });
    a.close();
    expect(m.snapshot()).toMatchObject({ gpu: 4, cgra: 6 });
    expect(a.slot()).toEqual({
      arrival: 0,
      start: 5,
      finish: 6,
      turnaround: 6,
      composed: true,
      work: [{ start: 5, finish: 6, seconds: 1, devices: { cgra: 1 } }],
    });
  });

  it('counts as ahead the reservations of higher priority and of equal priority opened earlier', async () => {
    const il = new Interleaver(machine(), true);
    const low = il.open({ tenant: 'low', priority: 0, weight: 1, arrival: 0 });
    const high = il.open({ tenant: 'high', priority: 5, weight: 1, arrival: 0 });
    const later = il.open({ tenant: 'later', priority: 0, weight: 1, arrival: 0 });
    const reserve = (lane: typeof low, gpu: number) => {
      void lane.enter(0, 0, { gpu });
    };
    reserve(low, 1);
    reserve(high, 2);
    reserve(later, 4);
    expect(il.ahead(high)).toEqual({});
    expect(il.ahead(low)).toEqual({ gpu: 2 });
    expect(il.ahead(later)).toEqual({ gpu: 3 });
    // The machine's queues and the reservations ahead are what a job plans against.
    expect(il.backlogFor(later)).toEqual({ gpu: 3 });
    for (const l of [low, high, later]) l.close();
  });

  it('lets jobs that arrived by the next turn open first: admitted lanes hold the turn until they say what they run', async () => {
    const m = machine();
    let late: ReturnType<Interleaver['open']> | undefined;
    const il = new Interleaver(m, false, () => {
      if (!late) late = il.open({ tenant: 'late', priority: 0, weight: 1, arrival: 1 });
    });
    const a = il.open({ tenant: 'a', priority: 0, weight: 1, arrival: 0 });
    let granted = false;
    const ta = a.enter(0, 2, {}).then((t) => {
      granted = true;
      return t;
    });
    await tick();
    await tick();
    expect(late).toBeDefined();
    expect(granted).toBe(false);
    // The late job's first operator is ready at 1, before a's at 2: it goes first.
    const order: string[] = [];
    const tl = late!.enter(0, 1, {}).then(() => order.push('late'));
    await tl;
    expect(granted).toBe(false);
    late!.leave(0, undefined);
    late!.close();
    const turn = await ta;
    expect(turn.elastic).toBe(false);
    a.leave(0, undefined);
    a.close();
    expect(order).toEqual(['late']);
  });

  it('refuses a turn to a job whose lane is closed', () => {
    const il = new Interleaver(machine(), true);
    const a = il.open({ tenant: 'a', priority: 0, weight: 1, arrival: 0 });
    a.close();
    a.close(); // twice is harmless
    expect(() => a.enter(0, 0, {})).toThrow(/Lane.enter: job 1 has closed its lane/);
  });
});

describe('planning order under operator turns', () => {
  it('lets a job plan only once every job opened before it has reserved or closed', async () => {
    const il = new Interleaver(machine(), true);
    const first = il.open({ tenant: 'first', priority: 0, weight: 1, arrival: 0 });
    const second = il.open({ tenant: 'second', priority: 0, weight: 1, arrival: 0 });
    const third = il.open({ tenant: 'third', priority: 0, weight: 1, arrival: 0 });
    let planned = '';
    const waitSecond = il.earlierPlans(second).then(() => (planned += 'second '));
    const waitThird = il.earlierPlans(third).then(() => (planned += 'third '));
    await il.earlierPlans(first); // nothing before it
    await tick();
    expect(planned).toBe('');
    first.reserve({ gpu: 2 });
    await waitSecond;
    await tick();
    expect(planned).toBe('second ');
    // The second job failed before planning: closing it lets the third go on.
    second.close();
    await waitThird;
    expect(planned).toBe('second third ');
    expect(il.backlogFor(third)).toEqual({ gpu: 2 });
    first.close();
    third.close();
  });
});

describe('weighted fair turns', () => {
  it('gives operators ready together to the tenant with the least work per weight, and makes later-ready ones wait', async () => {
    const il = new Interleaver(machine(), true);
    const heavy = il.open({ tenant: 'heavy', priority: 0, weight: 1, arrival: 0 });
    const light = il.open({ tenant: 'light', priority: 0, weight: 2, arrival: 0 });
    const order: string[] = [];
    // Each job asks for its next turn as soon as the last one ends, as a run does.
    const job = async (lane: typeof heavy, ops: [string, number][]) => {
      for (const [name, seconds] of ops) {
        await lane.enter(0, 0, {});
        order.push(name);
        lane.leave(0, { start: 0, finish: seconds, seconds, demand: seconds, devices: {}, busyUntil: {} });
      }
      lane.close();
    };
    // All ready at 0: heavy (opened first) goes first and takes 2 s; light, at weight 2, then has
    // 1 s / 2 = 0.5 s per weight against heavy's 2, and again 1 after its second: both before heavy's second.
    await Promise.all([
      job(heavy, [
        ['h1', 2],
        ['h2', 1],
      ]),
      job(light, [
        ['l1', 1],
        ['l2', 1],
      ]),
    ]);
    expect(order).toEqual(['h1', 'l1', 'l2', 'h2']);
    // An operator ready later than the machine can start another waits for the one ready now.
    const late: string[] = [];
    const heavy2 = il.open({ tenant: 'heavy', priority: 0, weight: 1, arrival: 0 });
    const light2 = il.open({ tenant: 'light', priority: 0, weight: 2, arrival: 0 });
    const once = async (lane: typeof heavy, name: string, readyAt: number) => {
      await lane.enter(0, readyAt, {});
      late.push(name);
      lane.leave(0, undefined);
      lane.close();
    };
    // light has 1 s per weight, heavy 3 s, but light's operator is ready only at 50 and heavy's at
    // 0: heavy goes first, though light is owed more.
    await Promise.all([once(light2, 'light at 50', 50), once(heavy2, 'heavy at 0', 0)]);
    expect(late).toEqual(['heavy at 0', 'light at 50']);
  });
});
