// runStream over the socket: a stream workload planned on its first input and run on every input
// by the server gives the outputs, plans and re-plans of the same stream run in-process, and holds
// the devices it uses on the machine's timeline for its pipelined makespan.

import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DenseMatrix } from '../../src/data/dense.js';
import { runStream } from '../../src/executor/stream.js';
import { generate } from '../../src/generators/index.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { connect, type DypeClient } from '../../src/service/client.js';
import type { DypeServer } from '../../src/service/server.js';
import { simulatedServer, TOKENS } from './support.js';

const inputs = [
  generate({ kind: 'kronecker', scale: 9, seed: 1 }),
  generate({ kind: 'kronecker', scale: 9, seed: 2 }),
  generate({ kind: 'grid', rows: 40, cols: 40, seed: 1 }),
];
let server: DypeServer;
let client: DypeClient;

beforeAll(async () => {
  server = await simulatedServer();
  client = await connect(server.addresses[0]!, { token: TOKENS.a });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

it('runs every input of a stream on the server as in-process', async () => {
  const served = await client.runStream('spmm', inputs, { probe: false, params: { k: 8 }, run: { replan: false } });
  const plan = await schedule('stream:spmm', inputs, { probe: false, params: { k: 8 }, system: server.state.system, model: server.state.model });
  const local = await runStream(plan, inputs, { replan: false });
  expect(served.results.length).toBe(3);
  expect(served.plans.map((p) => p.chosen.label)).toEqual(local.plans.map((p) => p.chosen.label));
  expect(served.replans.map((r) => r.input)).toEqual(local.replans.map((r) => r.input));
  served.results.forEach((r, k) => {
    const want = local.results[k]!.outputs['Y'] as DenseMatrix;
    const got = r.outputs['Y'] as DenseMatrix;
    expect([got.rows, got.cols]).toEqual([want.rows, want.cols]);
    expect(got.data).toEqual(want.data);
  });
  expect(served.pipelinedSeconds).toBeGreaterThan(0);
  expect(served.machine.finish - served.machine.start).toBeCloseTo(served.pipelinedSeconds, 12);
});

it('refuses a stream without inputs, with typed errors naming the call', async () => {
  await expect(client.runStream('gcn', [])).rejects.toThrow('DypeClient.runStream: inputs must be a non-empty array, got Array(0)');
  await expect(client.runStream('gcn', inputs, { run: { learn: true } as never })).rejects.toThrow(/unknown option "run.learn"/);
});
