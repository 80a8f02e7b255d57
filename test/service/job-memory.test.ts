// A tenant's memory quota counts what its running jobs compute beside the data it uploaded: a job
// that would pass the quota is refused with a LimitError before it runs, the bytes are held only
// while a job runs, and uploads count the running jobs' bytes too.

import { expect, it } from 'vitest';
import { LimitError } from '../../src/errors.js';
import { kroneckerGraph } from '../../src/generators/index.js';
import { runPlan } from '../../src/executor/run.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { connect } from '../../src/service/client.js';
import { JobMemory, planBytes } from '../../src/service/job-memory.js';
import { matrixBytes } from '../../src/service/wire-values.js';
import { specModel, twoDeviceSystem } from '../scheduler/schedule-fixtures.js';
import { closedAfterEach, simulatedServer, TOKENS } from './support.js';

const open = closedAfterEach();
const graph = kroneckerGraph({ scale: 8, edgeFactor: 8, seed: 4 });

it('holds a job’s bytes while it runs, and refuses one that would pass the quota', async () => {
  const memory = new JobMemory();
  const limit = () => ({ quota: 1000, dataBytes: 300 });
  let release: () => void = () => undefined;
  const first = memory.during('serve.run', 'a', 500, limit, () => new Promise<void>((r) => (release = r)));
  expect(memory.held('a')).toBe(500);
  await expect(memory.during('serve.run', 'a', 201, limit, async () => 0)).rejects.toThrow(LimitError);
  await expect(memory.during('serve.run', 'a', 201, limit, async () => 0)).rejects.toThrow(
    'serve.run: tenant "a" holds 300 bytes of data and 500 bytes in its running jobs; this job computes 201 bytes more, past its memory quota of 1000 bytes (memoryBytes)',
  );
  expect(await memory.during('serve.run', 'a', 200, limit, async () => memory.held('a'))).toBe(700); // exactly at the quota
  expect(
    await memory.during(
      'serve.run',
      'b',
      10 ** 9,
      () => ({ quota: undefined, dataBytes: 0 }),
      async () => 'no quota',
    ),
  ).toBe('no quota');
  release();
  await first;
  expect(memory.held('a')).toBe(0);
  await expect(memory.during('serve.run', 'a', 1, limit, async () => Promise.reject(new Error('failed')))).rejects.toThrow('failed');
  expect(memory.held('a')).toBe(0); // a failed job gives its bytes back
});

it("a plan's bytes: what it computes, and at least its outputs as the run makes them", async () => {
  const system = twoDeviceSystem();
  const plan = await schedule('gcn', graph, { probe: false, system, model: specModel(system) });
  const given = (d: unknown): boolean => d === graph;
  const { computed, outputs } = planBytes(plan, given);
  const result = await runPlan(plan, { replan: false });
  let made = 0;
  for (const v of Object.values(result.outputs)) made += (v as { data: ArrayBufferView }).data.byteLength;
  expect(outputs).toBe(made);
  expect(computed).toBeGreaterThan(outputs); // a GCN computes four values before its output
  // The graph counts only where the server does not hold it (as the plan prices it: at least its arrays).
  expect(planBytes(plan, () => false).computed).toBeGreaterThanOrEqual(computed + matrixBytes(graph));
});

it('refuses a served run past the memory quota and runs it within one', async () => {
  const tight = await simulatedServer({}, { memoryBytes: matrixBytes(graph) + 1024 });
  const a = await connect(tight.addresses[0]!, { token: TOKENS.a });
  const b = await connect(tight.addresses[0]!, { token: TOKENS.b });
  open.keep(tight, [a, b]);
  const refused = await a.run('gcn', graph, { probe: false, run: { replan: false } }).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(LimitError);
  expect((refused as Error).message).toMatch(/past its memory quota of \d+ bytes \(memoryBytes\)/);
  const ran = await b.run('gcn', graph, { probe: false, run: { replan: false } }); // b has no quota
  expect(Object.keys(ran.outputs)).toEqual(['agg2']);
  expect((await a.status()).store.tenantJobBytes).toBe(0);
});
