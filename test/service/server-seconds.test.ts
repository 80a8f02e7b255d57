// A served run says how long the server held it (`serverSeconds`): at least the run inside it and
// less than the client's whole call, so a user can tell the service's own time from the transport's.

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { kroneckerGraph } from '../../src/generators/index.js';
import { connect, type DypeClient } from '../../src/service/client.js';
import type { DypeServer } from '../../src/service/server.js';
import { inProcessServer } from './support.js';

let server: DypeServer;
let client: DypeClient;

beforeAll(async () => {
  let address = '';
  ({ server, address } = await inProcessServer());
  client = await connect(address, { token: readFileSync(server.tokenFile!, 'utf8').trim() });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

it('serverSeconds lies between the run inside the server and the whole call', async () => {
  const graph = kroneckerGraph({ scale: 9, edgeFactor: 8, seed: 5 });
  const plan = await client.schedule('gcn', graph, { probe: false });
  const start = performance.now();
  const served = await client.runPlan(plan, { replan: false });
  const callSeconds = (performance.now() - start) / 1000;
  expect(typeof served.serverSeconds).toBe('number');
  expect(served.serverSeconds!).toBeGreaterThanOrEqual(served.wallSeconds);
  expect(served.serverSeconds!).toBeLessThan(callSeconds);
});
