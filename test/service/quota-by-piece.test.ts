// Quotas hold piece by piece on the served machine: a tenant whose quota on the GPU is reached in
// the middle of a job has the rest of that job moved off the GPU at once (the job passes the
// quota by at most the piece that was running), its next job is planned without the GPU, and
// another tenant keeps the GPU. Whole jobs and operator turns alike. Simulated devices and the
// spec model: every piece's seconds are the same on any machine.

import { expect, it } from 'vitest';
import { runPlan } from '../../src/executor/run.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { connect, type ServedRunResult } from '../../src/service/client.js';
import { smallGraph, specModel, twoDeviceSystem } from '../scheduler/schedule-fixtures.js';
import { closedAfterEach, simulatedServer, TOKENS } from './support.js';

const graph = smallGraph();
const WINDOW = 100;
const open = closedAfterEach();

/** The GPU seconds of a GCN run in process with nothing limiting it, and its longest piece. */
async function unlimited(): Promise<{ total: number; longest: number }> {
  const system = twoDeviceSystem();
  const plan = await schedule('gcn', graph, { system, model: specModel(system), probe: false });
  const r = await runPlan(plan, { learn: false });
  expect(new Set(r.pieces.map((p) => p.device))).toEqual(new Set(['gpu']));
  const seconds = r.pieces.map((p) => p.observedSeconds);
  return { total: seconds.reduce((a, b) => a + b, 0), longest: Math.max(...seconds) };
}

const gpuSeconds = (r: ServedRunResult): number => r.pieces.filter((p) => p.device === 'gpu').reduce((s, p) => s + p.observedSeconds, 0);

for (const granularity of ['job', 'operator'] as const) {
  it(`stops a job's use of a device within one piece of its tenant's quota (${granularity} granularity)`, async () => {
    const { total, longest } = await unlimited();
    const limit = total / 3;
    // Without piece-by-piece quotas, the job would pass the limit by more than a piece.
    expect(total).toBeGreaterThan(limit + longest);
    const server = await simulatedServer({ granularity }, { quotas: { gpu: { share: limit / WINDOW, window: WINDOW } } });
    const a = await connect(server.addresses[0]!, { token: TOKENS.a });
    const b = await connect(server.addresses[0]!, { token: TOKENS.b });
    open.keep(server, [a, b]);
    const options = { probe: false, run: { learn: false } } as const;
    const first = await a.run('gcn', graph, options);
    const used = gpuSeconds(first);
    expect(used).toBeGreaterThanOrEqual(limit);
    expect(used).toBeLessThanOrEqual(limit + longest);
    expect(first.pieces.some((p) => p.device === 'cgra')).toBe(true);
    expect(first.replans.some((r) => /^quota: before \w+, gpu is over the run's allowance/.test(r.reason))).toBe(true);
    // The quota's use as `dype status` shows it: what the job's pieces were charged as they ended.
    const st = await a.status();
    expect(st.tenants.find((t) => t.name === 'a')!.devices['gpu']!.quota!.used * WINDOW).toBeCloseTo(used, 12);
    // The next job is planned without the GPU; the other tenant keeps it.
    const second = await a.run('gcn', graph, options);
    expect(second.pieces.every((p) => p.device === 'cgra')).toBe(true);
    const other = await b.run('gcn', graph, options);
    expect(other.pieces.every((p) => p.device === 'gpu')).toBe(true);
  });
}
