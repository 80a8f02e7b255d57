// A lease kept between runs (`runHere(plan, local, { keepLease: true })`, service/leases.ts and
// service/run-here.ts): the plan's next runs start without asking again and each goes on the
// timeline; the server asks for the lease back when another job waits (which then runs), when it
// idles, and never where the tenant has quotas; a client that leaves gives it back; runs reported
// late come checked whole.

import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { kroneckerGraph } from '../../src/generators/index.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { connect, type DypeClient } from '../../src/service/client.js';
import { KEEP_IDLE_SECONDS } from '../../src/service/leases.js';
import type { DypeServer } from '../../src/service/server.js';
import { encodeMatrix } from '../../src/service/wire-values.js';
import { RawClient, settle, simulatedServer, simulatedServerWithClients, TOKENS } from './support.js';

let server: DypeServer;
let a: DypeClient;
let b: DypeClient;
const graph = kroneckerGraph({ scale: 8, edgeFactor: 8, seed: 3 });

let close: () => Promise<void>;

beforeAll(async () => {
  ({ server, a, b, close } = await simulatedServerWithClients());
});
afterAll(() => close());

async function keptPlan(client: DypeClient) {
  const plan = await client.schedule('spmm', graph, { probe: false });
  const local = await schedule('spmm', graph, { probe: false, system: server.state.system, model: server.state.model, fixedMapping: plan.mapping });
  return { plan, local };
}

it('runs the plan again under the lease it kept, each run on the timeline, and gives it back once idle', async () => {
  const { plan, local } = await keptPlan(a);
  const asked = vi.spyOn(server.state.leases, 'request');
  const runs = [];
  for (let i = 0; i < 3; i++) runs.push(await a.runHere(plan, local, { keepLease: true, replan: false }));
  expect(asked).toHaveBeenCalledTimes(1);
  expect(server.state.leases.size).toBe(1);
  const slots = await Promise.all(runs.map((r) => r.recorded!));
  for (const [i, s] of slots.entries()) {
    expect(s.work).toHaveLength(runs[i]!.pieces.length);
    if (i > 0) expect(s.arrival).toBeGreaterThanOrEqual(slots[i - 1]!.arrival);
  }
  // Nobody asked for the devices: the server takes the lease back after it idles.
  expect(await settle(() => server.state.leases.size, 0)).toBe(0);
  expect(KEEP_IDLE_SECONDS).toBeLessThan(1.5);
  asked.mockRestore();
});

it("gives the lease back when another tenant's job waits, which then runs; the next run asks anew", async () => {
  const { plan, local } = await keptPlan(a);
  const other = await b.schedule('spmm', graph, { probe: false });
  await a.runHere(plan, local, { keepLease: true, replan: false });
  expect(server.state.leases.size).toBe(1);
  const asked = vi.spyOn(server.state.leases, 'request');
  const askedBack = vi.spyOn(server.state.leases, 'revokeAll');
  await expect(b.runPlan(other, { replan: false })).resolves.toBeDefined();
  // b's job had to wait, so the lease was asked back (not left to idle out), and given back.
  expect(askedBack).toHaveBeenCalled();
  expect(server.state.leases.size).toBe(0);
  askedBack.mockRestore();
  await a.runHere(plan, local, { keepLease: true, replan: false });
  expect(asked).toHaveBeenCalledTimes(1);
  asked.mockRestore();
  expect(await settle(() => server.state.leases.size, 0)).toBe(0);
});

it('a run without keepLease ends a kept lease with its record', async () => {
  const { plan, local } = await keptPlan(a);
  await a.runHere(plan, local, { keepLease: true, replan: false });
  expect(server.state.leases.size).toBe(1);
  const last = await a.runHere(plan, local, { replan: false });
  await last.recorded;
  expect(server.state.leases.size).toBe(0);
  await expect(a.runHere(plan, local, { keepLease: 'yes' as never })).rejects.toThrow(/keepLease must be a boolean/);
});

it('a client that closes gives its kept lease back with the runs it held back', async () => {
  const c = await connect(server.addresses[0]!, { token: TOKENS.a });
  const { plan, local } = await keptPlan(c);
  const committed = vi.spyOn(server.state.machine, 'commit');
  for (let i = 0; i < 3; i++) await c.runHere(plan, local, { keepLease: true, replan: false });
  expect(server.state.leases.size).toBe(1);
  await c.close();
  expect(await settle(() => server.state.leases.size, 0)).toBe(0);
  expect(committed).toHaveBeenCalledTimes(3);
  committed.mockRestore();
});

it('keeps no lease for a tenant with quotas', async () => {
  const quoted = await simulatedServer({}, { quotas: { gpu: { share: 0.9, window: 10 } } });
  const c = await connect(quoted.addresses[0]!, { token: TOKENS.a });
  try {
    const plan = await c.schedule('spmm', graph, { probe: false });
    const local = await schedule('spmm', graph, { probe: false, system: quoted.state.system, model: quoted.state.model, fixedMapping: plan.mapping });
    const r = await c.runHere(plan, local, { keepLease: true, replan: false });
    await r.recorded;
    expect(quoted.state.leases.size).toBe(0);
  } finally {
    await c.close();
    await quoted.close();
  }
});

const errorOf = (m: Record<string, unknown>): string => String((m['error'] as { message?: string } | undefined)?.message);

it('takes held-back runs (`earlier`) checked whole before any touches the timeline', async () => {
  const { raw } = await RawClient.hello(server.addresses[0]!, TOKENS.a);
  try {
    raw.send({ type: 'upload', id: 1, matrix: encodeMatrix(graph) });
    const hash = ((await raw.next())['result'] as { hash: string }).hash;
    raw.send({ type: 'schedule', id: 2, workload: 'spmm', data: hash, options: { probe: false } });
    const planId = ((await raw.next())['result'] as { planId: string }).planId;
    raw.send({ type: 'lease', id: 3, plan: planId });
    const grant = (await raw.next())['result'] as { lease: string; keep: boolean; arrival: number };
    expect(grant.keep).toBe(true);
    const run = { pieces: [{ start: 0, finish: 0.001, seconds: 0.001, devices: { gpu: 0.001 } }], busyUntil: { gpu: 0.001 }, makespan: 0.001 };
    const committed = vi.spyOn(server.state.machine, 'commit');
    raw.send({
      type: 'lease-done',
      id: 4,
      lease: grant.lease,
      keep: true,
      earlier: [
        { record: run, age: 0.01 },
        { record: { ...run, makespan: -1 }, age: 0 },
      ],
    });
    expect(errorOf(await raw.next())).toMatch(/record.makespan" must be seconds/);
    expect(committed).not.toHaveBeenCalled();
    raw.send({ type: 'lease-done', id: 5, lease: grant.lease, keep: true, earlier: Array.from({ length: 65 }, () => ({ record: run, age: 0 })) });
    expect(errorOf(await raw.next())).toMatch(/"earlier" must be an array of at most 64 runs/);
    raw.send({
      type: 'lease-done',
      id: 6,
      lease: grant.lease,
      keep: true,
      earlier: [
        { record: run, age: 0.02 },
        { record: run, age: 0.01 },
      ],
    });
    const kept = (await raw.next())['result'] as { kept: boolean; earlier: { arrival: number }[] };
    expect(kept.kept).toBe(true);
    expect(kept.earlier).toHaveLength(2);
    expect(committed).toHaveBeenCalledTimes(2);
    // The last record ends the lease; its run is placed when it started (age), at the grant at the earliest.
    raw.send({ type: 'lease-done', id: 7, lease: grant.lease, record: run, age: 3600 });
    const last = (await raw.next())['result'] as { kept: boolean; machine: { arrival: number } };
    expect(last.kept).toBe(false);
    expect(last.machine.arrival).toBe(grant.arrival);
    expect(server.state.leases.size).toBe(0);
    committed.mockRestore();
  } finally {
    raw.close();
  }
});
