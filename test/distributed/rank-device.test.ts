// A rank runs its sparse products on a device of its node (`runDistributed`'s and
// `distributedSpmm`'s `device`): on four loopback ranks, the one given a simulated GPU computes
// its rows there (the products named on that device, simulated seconds) and the others on their
// host kernels (measured), with outputs equal to the reference, by the shares `planNodes` gave.

import { expect, it } from 'vitest';
import type { DenseMatrix } from '../../src/data/dense.js';
import { planNodes } from '../../src/distributed/nodes.js';
import { runDistributed } from '../../src/distributed/run.js';
import { referenceValues } from '../../src/workloads/reference.js';
import { relativeDeviation } from '../support/compare.js';
import { loopback } from './loopback.js';
import { cluster, gpuNode, graph, models } from './node-kinds.js';

it("runs each rank's products on its node's device, with outputs equal to the reference", async () => {
  const plan = await planNodes('gcn', graph, cluster(1e10, 1e-6), { models });
  const gpu = gpuNode.devices[0]!;
  const runs = await Promise.all(
    loopback(4).map((comm) => runDistributed(comm, 'gcn', graph, { partitioner: 'rows', weights: plan.weights, ...(comm.rank === 0 ? { device: gpu } : {}) })),
  );
  // The GPU node's rank has the larger share and computed its products on the GPU.
  const rows = (r: number) => plan.partition.bounds![r + 1]! - plan.partition.bounds![r]!;
  expect(rows(0)).toBeGreaterThan(rows(1));
  const sparse = runs[0]!.bound.ops.filter((o) => o.kind === 'spmm').map((o) => o.id);
  expect(runs[0]!.products.map((p) => p.op)).toEqual(sparse);
  for (const p of runs[0]!.products) {
    expect(p.device).toBe('gpu');
    expect(p.source).toBe('simulated');
    expect(p.seconds).toBeGreaterThan(0);
  }
  for (const r of runs.slice(1)) for (const p of r.products) expect([p.device, p.source]).toEqual(['host', 'measured']);
  const ref = referenceValues(runs[0]!.bound);
  const o = runs[0]!.bound.outputs[0]!;
  for (const r of runs) {
    const got = r.outputs[r.bound.values[o]!.name] as DenseMatrix;
    const want = ref[o] as DenseMatrix;
    expect(relativeDeviation(got.data, want.data)).toBeLessThanOrEqual(1e-5);
  }
});

it('refuses a device that is not one, or cannot run the products, naming the function', async () => {
  const [one] = loopback(1);
  await expect(runDistributed(one!, 'gcn', graph, { device: { name: 'fake' } as never })).rejects.toThrow(
    /^runDistributed: device must be a device of a System, got/,
  );
  const bfsOnly = { ...gpuNode.devices[0]!, name: 'narrow', capabilities: { ...gpuNode.devices[0]!.capabilities, operators: ['bfs'] }, run: () => 0 };
  await expect(runDistributed(one!, 'gcn', graph, { device: bfsOnly as never })).rejects.toThrow(/^runDistributed: device narrow cannot run spmm in f32/);
});
