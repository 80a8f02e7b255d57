// Tenants are isolated: data uploaded by one is unknown to another (and the same bytes uploaded by
// both are stored once), plans and jobs of one cannot be run, seen or cancelled by another.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { AccessError, InvalidArgumentError } from '../../src/errors.js';
import { kroneckerGraph } from '../../src/generators/index.js';
import { connect, type DypeClient } from '../../src/service/client.js';
import type { DypeServer } from '../../src/service/server.js';
import { inProcessServer, TOKENS } from './support.js';

let server: DypeServer;
let a: DypeClient;
let b: DypeClient;
let open: () => void = () => undefined;
const graph = kroneckerGraph({ scale: 12, edgeFactor: 16, seed: 5 });

beforeAll(async () => {
  let address = '';
  ({ server, address } = await inProcessServer({ policy: true }));
  a = await connect(address, { token: TOKENS.a });
  b = await connect(address, { token: TOKENS.b });
});
afterAll(async () => {
  open();
  await a.close();
  await b.close();
  await server.close();
});

it('a tenant cannot use data another uploaded; the same bytes are stored once', async () => {
  const up = await a.upload(graph);
  expect(up.stored).toBe('new');
  await expect(b.schedule('spmm', { hash: up.hash }, { probe: false })).rejects.toThrow(InvalidArgumentError);
  await expect(b.schedule('spmm', { hash: up.hash }, { probe: false })).rejects.toThrow(
    /serve\.schedule: field "data": no data [0-9a-f]{12}\.\.\. for tenant "b"/,
  );
  const again = await b.upload(graph);
  expect(again).toMatchObject({ hash: up.hash, stored: 'shared' });
  expect((await b.status()).store.entries).toBe(1);
  await expect(b.schedule('spmm', { hash: up.hash }, { probe: false })).resolves.toBeDefined();
});

it("a tenant cannot run another's plan, see its jobs or cancel them", async () => {
  const plan = await a.schedule('gcn', graph, { probe: false });
  await expect(b.runPlan(plan)).rejects.toThrow(/no kept plan "p\d+" for tenant "b"/);
  // Hold the dispatcher, so a's job is queued while the others look at it.
  const gate = new Promise<void>((r) => (open = r));
  const blocker = server.scheduler.submit('test', {
    tenant: 'a',
    kind: 'hold',
    run: async () => {
      await gate;
      return { value: 0, usage: new Map() };
    },
  });
  const job = a.run('gcn', graph, { probe: false });
  let id: string | undefined;
  for (let i = 0; i < 200 && !id; i++) {
    id = (await a.status()).jobs.find((j) => j.kind === 'run')?.id;
    if (!id) await new Promise((r) => setTimeout(r, 5));
  }
  expect(id).toMatch(/^j\d+$/);
  const seenByB = await b.status();
  expect(seenByB.jobs).toEqual([]);
  await expect(b.cancel(id!)).rejects.toThrow(AccessError);
  await expect(b.cancel(id!)).rejects.toThrow(/belongs to another tenant/);
  open();
  await blocker.result;
  await expect(job).resolves.toMatchObject({ mapping: expect.any(String) });
});
