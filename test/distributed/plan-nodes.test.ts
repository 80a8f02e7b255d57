// Planning with a node dimension (planNodes): a kind of node predicted faster on the whole input
// takes a larger share of the rows (inverse to its time when the network is free), a rank that
// exchanges more takes less when the network is not, the shares beat equal ones, the front over
// which kinds take part holds no dominated choice, every figure says it is a prediction, and
// runDistributed splits the rows by the plan's weights with outputs equal to the reference.
// Simulated node kinds with the spec model: nothing here depends on this machine's timings.

import { expect, it } from 'vitest';
import type { DenseMatrix } from '../../src/data/dense.js';
import { planNodes } from '../../src/distributed/nodes.js';
import { runDistributed } from '../../src/distributed/run.js';
import { InvalidArgumentError, UnsupportedError } from '../../src/errors.js';
import { referenceValues } from '../../src/workloads/reference.js';
import { relativeDeviation } from '../support/compare.js';
import { loopback } from './loopback.js';
import { cluster, gpuNode, graph, models } from './node-kinds.js';

it('gives each kind of node rows inverse to its predicted time when the network costs nothing', async () => {
  const plan = await planNodes('gcn', graph, cluster(1e30), { models });
  const [gpu, cgra] = plan.kinds;
  expect(gpu!.seconds).toBeLessThan(cgra!.seconds);
  const expected = 1 / gpu!.seconds / (1 / gpu!.seconds + 3 / cgra!.seconds);
  // Row blocks land within a row of their target share.
  expect(Math.abs(plan.ranks[0]!.share - expected)).toBeLessThan(0.01);
  expect(plan.ranks.map((r) => r.node)).toEqual(['gpu', 'cgra', 'cgra', 'cgra']);
  for (const r of plan.ranks.slice(1)) expect(r.share).toBeLessThan(plan.ranks[0]!.share);
  expect(plan.weights.reduce((s, w) => s + w, 0)).toBeCloseTo(1, 12);
  expect(plan.seconds).toBeLessThan(plan.equalSharesSeconds);
  expect(plan.source).toMatch(/^predicted: /);
  expect(plan.explanation.join('\n')).toMatch(/1 gpu node takes \d+\.\d% of the rows' work/);
});

it('takes work off the ranks that exchange more when the network is slow, and is no slower for it', async () => {
  const free = await planNodes('gcn', graph, cluster(1e30), { models });
  const slow = await planNodes('gcn', graph, cluster(2e8, 5e-6), { models });
  expect(slow.seconds).toBeLessThan(slow.equalSharesSeconds);
  const exchanging = slow.ranks.map((r) => r.exchangeSeconds);
  expect(Math.max(...exchanging)).toBeGreaterThan(0);
  // The GPU rank's block sits between two others (first block: one neighbour), so compare the
  // middle ranks, which exchange the most: they lose share to the end ranks.
  const middle = slow.ranks[2]!;
  const end = slow.ranks[3]!;
  expect(middle.exchangeSeconds).toBeGreaterThan(end.exchangeSeconds);
  expect(middle.share).toBeLessThan(end.share);
  expect(free.ranks[2]!.share).toBeCloseTo(free.ranks[3]!.share, 2);
});

it('keeps only Pareto-optimal choices of which kinds take part, fastest first', async () => {
  const plan = await planNodes('gcn', graph, cluster(1e10, 1e-6), { models });
  expect(plan.front.length).toBeGreaterThan(0);
  for (const p of plan.front)
    for (const q of plan.front)
      if (p !== q) expect(q.seconds <= p.seconds && q.joules <= p.joules && (q.seconds < p.seconds || q.joules < p.joules)).toBe(false);
  for (let i = 1; i < plan.front.length; i++) expect(plan.front[i]!.seconds).toBeGreaterThanOrEqual(plan.front[i - 1]!.seconds);
  // Both kinds together are the fastest choice here.
  expect(plan.front[0]!.nodes).toEqual(['gpu', 'cgra']);
  expect(plan.front[0]!.seconds).toBeCloseTo(plan.seconds, 12);
});

it('splits the rows by the plan on every rank, with outputs equal to the reference', async () => {
  const plan = await planNodes('gcn', graph, cluster(1e10, 1e-6), { models });
  const runs = await Promise.all(loopback(4).map((comm) => runDistributed(comm, 'gcn', graph, { partitioner: 'rows', weights: plan.weights })));
  expect(Array.from(runs[0]!.partition.bounds!)).toEqual(Array.from(plan.partition.bounds!));
  const ref = referenceValues(runs[0]!.bound);
  const o = runs[0]!.bound.outputs[0]!;
  const got = runs[0]!.outputs[runs[0]!.bound.values[o]!.name] as DenseMatrix;
  const want = ref[o] as DenseMatrix;
  expect(relativeDeviation(got.data, want.data)).toBeLessThanOrEqual(1e-5);
  const [one] = loopback(1);
  await expect(runDistributed(one!, 'gcn', graph, { weights: [1, 2] })).rejects.toThrow(/^runDistributed: weights must give each of the 1 ranks a share/);
});

it('refuses what it cannot price, and a bad cluster, naming the function', async () => {
  await expect(planNodes('bfs', graph, cluster(1e10), { models })).rejects.toThrow(UnsupportedError);
  await expect(planNodes('bfs', graph, cluster(1e10), { models })).rejects.toThrow(
    /^planNodes: operator \w+ \(bfs\): its exchange across nodes is not priced here yet/,
  );
  await expect(planNodes('gcn', graph, { nodes: [], interconnect: cluster(1).interconnect }, { models })).rejects.toThrow(InvalidArgumentError);
  const twice = {
    ...cluster(1e10),
    nodes: [
      { name: 'gpu', system: gpuNode },
      { name: 'gpu', system: gpuNode },
    ],
  };
  await expect(planNodes('gcn', graph, twice, { models })).rejects.toThrow(/^planNodes: cluster.nodes\[1\].name must be a name not used before/);
  await expect(planNodes('gcn', graph, { ...cluster(1e10), interconnect: { latencySeconds: 0 } } as never, { models })).rejects.toThrow(
    /cluster.interconnect must have/,
  );
  await expect(planNodes('gcn', graph, cluster(1e10), { model: models.gpu } as never)).rejects.toThrow(/unknown option "model"/);
});
