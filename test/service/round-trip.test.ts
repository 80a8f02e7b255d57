// Served calls give what the same calls give in-process: the front and the chosen mapping of
// `schedule` and `explore` (planning without probes, so neither depends on timings), and the
// outputs of a run, equal to the in-process run's.

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DenseMatrix } from '../../src/data/dense.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { runPlan } from '../../src/executor/run.js';
import { kroneckerGraph } from '../../src/generators/index.js';
import { explore, schedule } from '../../src/scheduler/schedule.js';
import { connect, type DypeClient } from '../../src/service/client.js';
import type { DypeServer } from '../../src/service/server.js';
import { inProcessServer } from './support.js';

let server: DypeServer;
let client: DypeClient;
const graph = kroneckerGraph({ scale: 9, edgeFactor: 8, seed: 3 });

beforeAll(async () => {
  let address = '';
  ({ server, address } = await inProcessServer());
  client = await connect(address, { token: readFileSync(server.tokenFile!, 'utf8').trim() });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

const labels = (front: readonly { label: string }[]): string[] => front.map((p) => p.label);

it('schedule and explore: the same front and pick as in-process', async () => {
  const options = { probe: false, policy: 'min-energy' } as const;
  const served = await client.schedule('gcn', graph, options);
  const local = await schedule('gcn', graph, { ...options, system: server.state.system, model: server.state.model });
  expect(served.chosen.label).toBe(local.chosen.label);
  expect(labels(served.front)).toEqual(labels(local.front));
  expect(served.chosen.genome).toBeInstanceOf(Int32Array);
  expect(served.explanation.summary).toEqual(local.explanation.summary);
  const ex = await client.explore('spmm', graph, { probe: false });
  const exLocal = await explore('spmm', graph, { probe: false, system: server.state.system, model: server.state.model });
  expect(labels(ex.front)).toEqual(labels(exLocal.front));
  expect('problem' in ex).toBe(false);
});

it('runPlan of a served plan and run in one request: outputs equal to the in-process run', async () => {
  const plan = await client.schedule('gcn', graph, { probe: false });
  const served = await client.runPlan(plan, { replan: false });
  const local = await runPlan(await schedule('gcn', graph, { probe: false, system: server.state.system, model: server.state.model }), { replan: false });
  expect(Object.keys(served.outputs)).toEqual(Object.keys(local.outputs));
  for (const [k, v] of Object.entries(local.outputs)) {
    const s = served.outputs[k] as DenseMatrix;
    expect(s).toBeInstanceOf(DenseMatrix);
    expect([s.rows, s.cols]).toEqual([(v as DenseMatrix).rows, (v as DenseMatrix).cols]);
    expect(s.data).toEqual((v as DenseMatrix).data);
  }
  expect(served.pieces.length).toBe(local.pieces.length);
  expect(served.mapping).toBe(local.mapping);
  const once = await client.run('gcn', graph, { probe: false, run: { replan: false } });
  expect(once.plan?.chosen.label).toBe(plan.chosen.label);
  expect((once.outputs['agg2'] as DenseMatrix).data).toEqual((local.outputs['agg2'] as DenseMatrix).data);
  // The graph was uploaded once and referenced by hash after.
  const st = await client.status();
  expect(st.store.tenantEntries).toBe(1);
  expect(st.tenants[0]!.completed).toBeGreaterThanOrEqual(4);
  expect(st.devices.reduce((s, d) => s + d.busySeconds, 0)).toBeGreaterThan(0);
});

it("refuses bad options with the library's own typed errors, and server-owned options", async () => {
  await expect(client.schedule('gcn', graph, { polcy: 'min-time' } as never)).rejects.toThrow(/schedule: unknown option "polcy" \(did you mean "policy"\?\)/);
  await expect(client.schedule('gnc', graph)).rejects.toThrow(InvalidArgumentError);
  await expect(client.schedule('gcn', graph, { system: {} } as never)).rejects.toThrow(/option "options.system" is the server's/);
  await expect(client.runPlan({ planId: 'p999' } as never)).rejects.toThrow(/no kept plan "p999" for tenant "default"/);
  const sys = await client.system();
  expect(sys.devices.map((d) => d.name)).toEqual(server.state.system.devices.map((d) => d.name));
});
