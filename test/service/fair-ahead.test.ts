// Under operator turns, what a job plans against (the work ahead of it) follows the order the
// turns will really take: a tenant's jobs oldest first, tenants by virtual time per weight. Ranked
// by opening order instead, a job opened after another tenant's backlog planned behind all of it,
// though fair turns serve most of that backlog after its own work; and one tenant's jobs
// interleaved with each other, so all of them finished late together.

import { describe, expect, it } from 'vitest';
import { Interleaver, type Lane } from '../../src/service/interleaver.js';
import { MachineTimeline } from '../../src/service/machine-timeline.js';

const machine = () => new MachineTimeline(['gpu', 'cgra', 'host->gpu', 'gpu->host'], ['gpu', 'cgra'], 'shared');
const job = (tenant: string, weight = 1) => ({ tenant, priority: 0, weight, arrival: 0 });
const reserve = (lane: Lane, gpu: number): void => void lane.enter(0, 0, { gpu });

describe('the work ahead of a job under operator turns', () => {
  it('counts another tenant only up to its fair share, not every job it opened earlier', () => {
    const il = new Interleaver(machine(), true);
    const a = [il.open(job('a')), il.open(job('a')), il.open(job('a'))];
    const b = il.open(job('b'));
    for (const l of a) reserve(l, 1);
    reserve(b, 1);
    // a's first job starts at the same virtual time as b's (opened earlier, so ahead); a's second
    // and third start after a has had its first second of GPU time.
    expect(il.ahead(b)).toEqual({ gpu: 1 });
    expect(il.ahead(a[1]!)).toEqual({ gpu: 2 });
    expect(il.ahead(a[2]!)).toEqual({ gpu: 3 });
    for (const l of [...a, b]) l.close();
  });

  it('advances a heavier tenant more slowly through its own jobs', () => {
    const il = new Interleaver(machine(), true);
    const a = [il.open(job('a')), il.open(job('a')), il.open(job('a'))];
    const b = [il.open(job('b', 2)), il.open(job('b', 2))];
    for (const l of [...a, ...b]) reserve(l, 1);
    // b's second job starts at virtual time 0.5 (1 s at weight 2): after a's first (0), before a's second (1).
    expect(il.ahead(b[1]!)).toEqual({ gpu: 2 });
    expect(il.ahead(a[1]!)).toEqual({ gpu: 3 });
    for (const l of [...a, ...b]) l.close();
  });

  it("gives a tenant's older job the turn before its newer one, though the newer was ready sooner", async () => {
    const m = machine();
    m.occupy({ gpu: 5, cgra: 5 });
    const il = new Interleaver(m, false);
    const older = il.open(job('a'));
    const newer = il.open(job('a'));
    const tn = newer.enter(0, 3, {}).then(() => newer);
    const to = older.enter(0, 4, {}).then(() => older);
    const first = await Promise.race([tn, to]);
    const second = first === older ? newer : older;
    expect(first).toBe(older);
    first.leave(0, undefined);
    first.close();
    expect(await (second === newer ? tn : to)).toBe(second);
    second.close();
  });
});
