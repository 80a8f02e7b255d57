// schedule() on every shipped workload: a non-empty front sorted by time, the chosen point on it,
// a portable mapping of the chosen genome, and an explanation that names the chosen devices.

import { describe, expect, it } from 'vitest';
import { schedule } from '../../src/scheduler/schedule.js';
import { shippedWorkloads } from '../../src/workloads/library.js';
import { smallGraph, specModel, twoDeviceSystem } from './schedule-fixtures.js';

const system = twoDeviceSystem();
const model = specModel(system);
const graph = smallGraph();

it('ships the seven workloads this suite plans', () => {
  expect(shippedWorkloads()).toEqual(['bfs', 'gat', 'gcn', 'msbfs', 'pagerank', 'sage', 'spmm']);
});

describe.each(['spmm', 'bfs', 'msbfs', 'gcn', 'sage', 'pagerank', 'gat'])('schedule(%s)', (name) => {
  it('returns a plan on its front, explained', async () => {
    const plan = await schedule(name, graph, { system, model });
    expect(plan.workload).toBe(name);
    expect(plan.modelled).toBe(true);
    expect(plan.front.length).toBeGreaterThan(0);
    for (let i = 1; i < plan.front.length; i++) expect(plan.front[i]!.time).toBeGreaterThanOrEqual(plan.front[i - 1]!.time);
    // Nothing on the front dominates another point of it.
    for (const p of plan.front) {
      for (const q of plan.front) if (q !== p) expect(q.time <= p.time && q.energy <= p.energy && (q.time < p.time || q.energy < p.energy)).toBe(false);
    }
    // min-time (the default) picks the fastest point of the front, or a simpler mapping within
    // the model's resolution of it (and the explanation says so).
    expect(plan.policy).toBe('min-time');
    const summary0 = plan.explanation.summary.join('\n');
    // (The same mapping may read a little differently once its split's parts were probed.)
    if (plan.chosen.label !== plan.front[0]!.label) {
      expect(summary0).toMatch(/the simpler mapping is kept|probed where it runs and re-balanced/);
      expect(plan.chosen.time).toBeLessThanOrEqual(plan.front[0]!.time * 1.05);
    } else {
      expect(plan.front.some((p) => p.label === plan.chosen.label)).toBe(true);
    }
    expect(plan.predicted.makespan).toBe(plan.chosen.latency);
    expect(plan.chosen.label).toBe(plan.problem.bound.ops.map((op, i) => `${op.id}:${plan.problem.choices[i]![plan.chosen.genome[i]!]!.label}`).join(', '));
    expect(plan.mapping.map((m) => m.op)).toEqual(plan.problem.bound.ops.map((o) => o.id));

    const summary = plan.explanation.summary.join('\n');
    expect(plan.explanation.summary.length).toBeGreaterThan(0);
    expect(summary).toMatch(/^Chosen by min-time: /m);
    for (const device of new Set(plan.mapping.flatMap((m) => m.devices))) expect(summary).toContain(device);
  });
});
