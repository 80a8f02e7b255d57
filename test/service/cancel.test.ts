// A served call is cancelled as a local one is: its AbortSignal (sent as a cancel of its request)
// or its timeout stops the job, queued or running, and the call rejects with an AbortedError.

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AbortedError } from '../../src/errors.js';
import { kroneckerGraph } from '../../src/generators/index.js';
import { connect, type DypeClient } from '../../src/service/client.js';
import type { DypeServer } from '../../src/service/server.js';
import { inProcessServer } from './support.js';

let server: DypeServer;
let client: DypeClient;
let open: () => void = () => undefined;
const graph = kroneckerGraph({ scale: 9, edgeFactor: 8, seed: 1 });

beforeAll(async () => {
  let address = '';
  ({ server, address } = await inProcessServer());
  client = await connect(address, { token: readFileSync(server.tokenFile!, 'utf8').trim() });
});
afterAll(async () => {
  open();
  await client.close();
  await server.close();
});

it('an aborted signal and a timeout cancel queued jobs; the dispatcher goes on', async () => {
  const gate = new Promise<void>((r) => (open = r));
  const blocker = server.scheduler.submit('test', {
    tenant: 'default',
    kind: 'hold',
    run: async () => {
      await gate;
      return { value: 0, usage: new Map() };
    },
  });
  const controller = new AbortController();
  const aborted = client.run('spmm', graph, { probe: false, signal: controller.signal });
  const timed = client.schedule('spmm', graph, { probe: false, timeout: 0.2 });
  await client.upload(graph);
  await new Promise((r) => setImmediate(r));
  await client.status(); // requests of a connection are taken in order: both are queued now
  controller.abort();
  await expect(aborted).rejects.toThrow(AbortedError);
  await expect(aborted).rejects.toThrow(/was cancelled by its client/);
  await expect(timed).rejects.toThrow(/reached its timeout of 0.2 s while queued/);
  expect((await client.status()).jobs.map((j) => j.kind)).toEqual(['hold']);
  open();
  await blocker.result;
  await expect(client.schedule('spmm', graph, { probe: false })).resolves.toMatchObject({ workload: 'spmm' });
  await expect(client.run('spmm', graph, { signal: AbortSignal.abort() })).rejects.toThrow(/signal is already aborted/);
});
