// A served run says how long the server held it (`serverSeconds`): at least the run inside it and
// less than the client's whole call, so a user can tell the service's own time from the transport's.

import { expect, it } from 'vitest';
import { kroneckerGraph } from '../../src/generators/index.js';
import { serverForFile } from './support.js';

const served = serverForFile();

it('serverSeconds lies between the run inside the server and the whole call', async () => {
  const graph = kroneckerGraph({ scale: 9, edgeFactor: 8, seed: 5 });
  const { client } = served;
  const plan = await client.schedule('gcn', graph, { probe: false });
  const start = performance.now();
  const run = await client.runPlan(plan, { replan: false });
  const callSeconds = (performance.now() - start) / 1000;
  expect(typeof run.serverSeconds).toBe('number');
  expect(run.serverSeconds!).toBeGreaterThanOrEqual(run.wallSeconds);
  expect(run.serverSeconds!).toBeLessThan(callSeconds);
});
