// One timeline per device across tenants: jobs that arrive together are planned against the
// backlog of those before them, so they spread over the devices and co-run, where the exclusive
// baseline (each job holds the whole machine, first come first served) runs them one after another.
// Arrivals are declared (replay), planning has no probes: nothing here depends on timings.

import { expect, it } from 'vitest';
import { connect, type ServedRunResult } from '../../src/service/client.js';
import type { Sharing } from '../../src/service/machine-timeline.js';
import { smallGraph } from '../scheduler/schedule-fixtures.js';
import { closedAfterEach, simulatedServer, TOKENS } from './support.js';

const graph = smallGraph();
const open = closedAfterEach();

/** Forty jobs, twenty per tenant, all arriving at 0; their places on the machine's timeline. */
async function fortyJobs(sharing: Sharing, backlogPlanning = true): Promise<ServedRunResult[]> {
  const server = await simulatedServer({ sharing, clock: 'declared', backlogPlanning });
  const clients = [await connect(server.addresses[0]!, { token: TOKENS.a }), await connect(server.addresses[0]!, { token: TOKENS.b })];
  open.keep(server, clients);
  const jobs: Promise<ServedRunResult>[] = [];
  for (let k = 0; k < 20; k++) for (const c of clients) jobs.push(c.run('spmm', graph, { probe: false, arrival: 0, run: { replan: false, learn: false } }));
  const results = await Promise.all(jobs);
  await open.close();
  return results;
}

const used = (r: ServedRunResult): string[] => [...new Set(r.pieces.map((p) => p.device))];

it('spreads jobs that arrive together over the devices, so they co-run and finish sooner than one at a time', async () => {
  const shared = await fortyJobs('shared');
  const exclusive = await fortyJobs('exclusive');
  // Exclusive: every job on the fastest device, one after another.
  for (const r of exclusive) expect(used(r)).toEqual(['gpu']);
  const order = [...exclusive].sort((x, y) => x.machine!.start - y.machine!.start);
  for (let i = 1; i < order.length; i++) expect(order[i]!.machine!.start).toBeGreaterThanOrEqual(order[i - 1]!.machine!.finish - 1e-12);
  // Shared: a job's copy to the GPU overlaps the kernel before it; once the GPU's queue outweighs
  // its speed (the CGRA takes 10x as long here), jobs go to the idle CGRA and run beside it.
  expect(shared.some((r) => used(r).includes('cgra'))).toBe(true);
  const onGpu = shared.filter((r) => used(r).includes('gpu') && !used(r).includes('cgra'));
  const onCgra = shared.filter((r) => used(r).includes('cgra') && !used(r).includes('gpu'));
  const overlap = onGpu.some((g) => onCgra.some((c) => c.machine!.start < g.machine!.finish && g.machine!.start < c.machine!.finish));
  expect(overlap).toBe(true);
  const last = (rs: ServedRunResult[]): number => Math.max(...rs.map((r) => r.machine!.finish));
  expect(last(shared)).toBeLessThan(last(exclusive));
  // Every turnaround counts from the declared arrival, waiting included.
  for (const r of [...shared, ...exclusive]) {
    expect(r.machine!.arrival).toBe(0);
    expect(r.machine!.turnaround).toBeCloseTo(r.machine!.finish, 12);
    expect(r.machine!.composed).toBe(true);
    // Its pieces on the machine's clock: all its device seconds, inside its slot.
    const work = r.machine!.work!;
    expect(work.reduce((t, w) => t + w.seconds, 0)).toBeCloseTo(
      r.pieces.reduce((t, p) => t + p.observedSeconds, 0),
      12,
    );
    for (const w of work) {
      expect(w.start).toBeGreaterThanOrEqual(r.machine!.start - 1e-12);
      expect(w.finish).toBeLessThanOrEqual(r.machine!.finish + 1e-12);
      // The same seconds by device, on the devices the run used.
      expect(Object.values(w.devices).reduce((t, s) => t + s, 0)).toBeCloseTo(w.seconds, 12);
      for (const d of Object.keys(w.devices)) expect(r.pieces.some((p) => p.device === d)).toBe(true);
    }
  }
});

it('queues every job on the fastest device when jobs are planned as if the machine were idle', async () => {
  const blind = await fortyJobs('shared', false);
  for (const r of blind) expect(used(r)).toEqual(['gpu']);
  const last = Math.max(...blind.map((r) => r.machine!.finish));
  // Still co-running on the link and the GPU, but never beside it on the CGRA.
  expect(last).toBeGreaterThan(Math.max(...(await fortyJobs('shared')).map((r) => r.machine!.finish)));
});

it('keeps a tenant to the devices its policy gives it (a static partition)', async () => {
  const server = await simulatedServer({}, { devices: ['cgra'] });
  const client = await connect(server.addresses[0]!, { token: TOKENS.a });
  open.keep(server, [client]);
  const r = await client.run('spmm', graph, { probe: false, run: { replan: false, learn: false } });
  expect(used(r)).toEqual(['cgra']);
  // Replayed arrivals are refused where the server stamps them itself.
  await expect(client.run('spmm', graph, { probe: false, arrival: 1 })).rejects.toThrow(/field "arrival" is for servers that replay declared arrivals/);
  await expect(client.run('spmm', graph, { probe: false, backlog: { gpu: 1 } })).rejects.toThrow(/option "options.backlog" is the server's/);
});
