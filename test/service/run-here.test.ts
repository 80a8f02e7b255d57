// A plan the server keeps, run in the client's own process on devices the server grants
// (`runHere`: service/leases.ts, service/run-here.ts): the outputs equal the served run's, the
// run sits on the shared timeline and is charged to its tenant; a local plan of another mapping or
// system is refused; records are checked before they touch the timeline; a lease is its tenant's
// alone; and a lease whose client leaves, or whose run failed, gives its devices back.

import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DenseMatrix } from '../../src/data/dense.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { kroneckerGraph } from '../../src/generators/index.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { connect, type DypeClient } from '../../src/service/client.js';
import type { DypeServer } from '../../src/service/server.js';
import { encodeMatrix } from '../../src/service/wire-values.js';
import { specModel, twoDeviceSystem } from '../scheduler/schedule-fixtures.js';
import { inProcessServer, RawClient, settle, TOKENS } from './support.js';

let server: DypeServer;
let address: string;
let a: DypeClient;
const graph = kroneckerGraph({ scale: 9, edgeFactor: 8, seed: 5 });

beforeAll(async () => {
  ({ server, address } = await inProcessServer({ policy: true }));
  a = await connect(address, { token: TOKENS.a });
});
afterAll(async () => {
  await a.close();
  await server.close();
});

const localPlan = (workload: string, mapping: Parameters<typeof schedule>[2] extends infer O ? O : never) =>
  schedule(workload, graph, { probe: false, system: server.state.system, model: server.state.model, ...mapping });

it('runs the kept plan here: the served run outputs, on the shared timeline, charged to its tenant', async () => {
  const plan = await a.schedule('gcn', graph, { probe: false });
  const local = await localPlan('gcn', { fixedMapping: plan.mapping });
  const here = await a.runHere(plan, local, { replan: false });
  const served = await a.runPlan(plan, { replan: false });
  expect(here.outputsVia).toBe('this-process');
  expect(Object.keys(here.outputs)).toEqual(Object.keys(served.outputs));
  for (const [k, v] of Object.entries(served.outputs)) expect((here.outputs[k] as DenseMatrix).data).toEqual((v as DenseMatrix).data);
  const machine = await here.recorded!;
  expect(machine.work).toHaveLength(here.pieces.length);
  expect(machine.finish).toBeGreaterThan(machine.arrival);
  const st = await a.status();
  const mine = st.tenants.find((t) => t.name === 'a')!;
  expect(mine.completed).toBeGreaterThanOrEqual(3); // schedule, the lease, the served run
  expect(st.devices.reduce((s, d) => s + d.busySeconds, 0)).toBeGreaterThan(0);
  expect(server.state.leases.size).toBe(0);
});

it('refuses a local plan of another mapping or of another system, before asking for devices', async () => {
  const plan = await a.schedule('gcn', graph, { probe: false });
  const other = await localPlan('spmm', {});
  await expect(a.runHere(plan, other)).rejects.toThrow(/runHere: the local plan maps .* make it with schedule/);
  const sim = twoDeviceSystem();
  const elsewhere = await schedule('gcn', graph, { probe: false, system: sim, model: specModel(sim) });
  await expect(a.runHere(plan, elsewhere)).rejects.toThrow(InvalidArgumentError);
  await expect(a.runHere(plan, elsewhere)).rejects.toThrow(/not the server's/);
  await expect(a.runHere(plan, {} as never)).rejects.toThrow(/local must be a plan made in this process/);
  expect(server.state.leases.size).toBe(0);
});

/** A raw client of tenant `token` that has uploaded the graph and holds a kept plan's id. */
async function rawWithPlan(token: string): Promise<{ raw: RawClient; planId: string }> {
  const { raw } = await RawClient.hello(address, token);
  raw.send({ type: 'upload', id: 1, matrix: encodeMatrix(graph) });
  const up = await raw.next();
  const hash = (up['result'] as { hash: string }).hash;
  raw.send({ type: 'schedule', id: 2, workload: 'spmm', data: hash, options: { probe: false } });
  const planned = await raw.next();
  return { raw, planId: (planned['result'] as { planId: string }).planId };
}

const errorOf = (m: Record<string, unknown>): string => String((m['error'] as { message?: string } | undefined)?.message);

it("checks a record field by field, and a lease is its own tenant's alone", async () => {
  const { raw, planId } = await rawWithPlan(TOKENS.a);
  raw.send({ type: 'lease', id: 3, plan: planId });
  const grant = (await raw.next())['result'] as { lease: string; backlog: object };
  expect(grant.lease).toMatch(/^lease-\d+$/);
  expect(server.state.leases.size).toBe(1);
  const bad = [
    [{ pieces: [], busyUntil: {}, makespan: Number.NaN }, /record.makespan" must be seconds/],
    [{ pieces: [{ start: 2, finish: 1, seconds: 1, devices: {} }], busyUntil: {}, makespan: 1 }, /finish 1 s is before start 2 s/],
    [{ pieces: [], busyUntil: { tpu: 1 }, makespan: 1 }, /"tpu" is not a device or link of this server/],
    [{ pieces: 'all', busyUntil: {}, makespan: 1 }, /record.pieces" must be an array/],
    [{ pieces: [], busyUntil: {}, makespan: 1, extra: 1 }, /unknown field "extra"/],
  ] as const;
  let id = 4;
  for (const [record, message] of bad) {
    raw.send({ type: 'lease-done', id: id++, lease: grant.lease, record });
    expect(errorOf(await raw.next())).toMatch(message);
  }
  expect(server.state.leases.size).toBe(1); // a bad record ends nothing
  const { raw: b } = await RawClient.hello(address, TOKENS.b);
  b.send({ type: 'lease-done', id: 1, lease: grant.lease, record: { pieces: [], busyUntil: {}, makespan: 0 } });
  expect(errorOf(await b.next())).toMatch(/no open lease "lease-\d+" of this tenant/);
  b.close();
  raw.send({
    type: 'lease-done',
    id: id++,
    lease: grant.lease,
    record: { pieces: [{ start: 0, finish: 0.001, seconds: 0.001, devices: { cpu: 0.001 } }], busyUntil: { cpu: 0.001 }, makespan: 0.001 },
  });
  const done = await raw.next();
  expect((done['result'] as { machine: { work: unknown[] } }).machine.work).toHaveLength(1);
  expect(server.state.leases.size).toBe(0);
  raw.close();
});

it('a lease ends when its run failed or its client leaves, and the next job gets the devices', async () => {
  const { raw, planId } = await rawWithPlan(TOKENS.a);
  raw.send({ type: 'lease', id: 3, plan: planId });
  const first = (await raw.next())['result'] as { lease: string };
  raw.send({ type: 'lease-done', id: 4, lease: first.lease, failed: 'out of memory' });
  expect((await raw.next())['result']).toEqual({ ended: first.lease });
  expect(server.state.leases.size).toBe(0);
  raw.send({ type: 'lease', id: 5, plan: planId });
  await raw.next();
  expect(server.state.leases.size).toBe(1);
  raw.close();
  expect(await settle(() => server.state.leases.size, 0)).toBe(0);
  // The machine is free again: a served run of tenant a goes through.
  const plan = await a.schedule('spmm', graph, { probe: false });
  await expect(a.runPlan(plan, { replan: false })).resolves.toBeDefined();
});
