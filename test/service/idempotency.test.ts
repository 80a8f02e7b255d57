// Idempotency keys: the same keyed request sent again joins the job already made (it runs once),
// also from another connection after the first one dropped mid-job (a keyed job is not cancelled
// with its connection); a key reused for a different request is refused; keys are per tenant.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { DenseMatrix } from '../../src/data/dense.js';
import { kroneckerGraph } from '../../src/generators/index.js';
import { connect, type DypeClient } from '../../src/service/client.js';
import type { DypeServer } from '../../src/service/server.js';
import { smallGraph } from '../scheduler/schedule-fixtures.js';
import { simulatedServerWithClients, TOKENS } from './support.js';

const graph = smallGraph();
const options = { probe: false, run: { replan: false, learn: false } } as const;
let server: DypeServer;
let a: DypeClient;
let b: DypeClient;

let close: () => Promise<void>;

beforeAll(async () => {
  ({ server, a, b, close } = await simulatedServerWithClients());
});
afterAll(() => close());

const completed = async (c: DypeClient): Promise<number> => (await c.status()).tenants.find((t) => t.name === (c === a ? 'a' : 'b'))!.completed;

it('runs a keyed request once, however often it is sent', async () => {
  const before = await completed(a);
  const [r1, r2] = await Promise.all([a.run('spmm', graph, { ...options, key: 'job-1' }), a.run('spmm', graph, { ...options, key: 'job-1' })]);
  const r3 = await a.run('spmm', graph, { ...options, key: 'job-1' });
  expect(await completed(a)).toBe(before + 1);
  for (const r of [r2, r3]) expect((r.outputs['Y'] as DenseMatrix).data).toEqual((r1.outputs['Y'] as DenseMatrix).data);
  // Another tenant's key of the same name is its own.
  const beforeB = await completed(b);
  await b.run('spmm', graph, { ...options, key: 'job-1' });
  expect(await completed(b)).toBe(beforeB + 1);
});

it('refuses a key reused for a different request', async () => {
  await a.run('spmm', graph, { ...options, key: 'job-2' });
  await expect(a.run('spmm', graph, { ...options, params: { k: 8 }, key: 'job-2' })).rejects.toThrow(
    /key "job-2" was used for a different request of this tenant; use a new key for a new request/,
  );
  await expect(a.run('spmm', graph, { ...options, key: 'has space' })).rejects.toThrow(/field "key" must be 1 to 128 printable ASCII characters/);
});

it('keeps a keyed job through a dropped connection, for the client to collect on a new one', async () => {
  // A graph large enough that the job is still running when its client vanishes.
  const big = kroneckerGraph({ scale: 15, edgeFactor: 16, seed: 4 });
  const gone = await connect(server.addresses[0]!, { token: TOKENS.a });
  const { hash } = await gone.upload(big);
  const before = await completed(a);
  const lost = gone.run('gcn', { hash }, { ...options, key: 'job-3' }).catch((e: unknown) => e);
  // Once the server has the job, the client vanishes.
  for (let i = 0; i < 200 && (await a.status()).tenants.find((t) => t.name === 'a')!.running + (await completed(a)) - before === 0; i++) {
    await new Promise((r) => setTimeout(r, 1));
  }
  await gone.close();
  expect(await lost).toBeInstanceOf(Error);
  // The job ran to its end without its client ...
  for (let i = 0; i < 500 && (await completed(a)) === before; i++) await new Promise((r) => setTimeout(r, 2));
  expect(await completed(a)).toBe(before + 1);
  // ... and a new connection collects its result under the key, without running it again.
  const back = await connect(server.addresses[0]!, { token: TOKENS.a });
  const r = await back.run('gcn', { hash }, { ...options, key: 'job-3' });
  expect(r.outputs['agg2']).toBeInstanceOf(DenseMatrix);
  expect(await completed(a)).toBe(before + 1);
  await back.close();
});
