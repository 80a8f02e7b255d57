// The run's composed timeline: pieces lie in [0, makespan], a device runs one piece at a time, an
// operator starts after its operands exist, and independent branches on different devices overlap.

import { describe, expect, it } from 'vitest';
import { type RunResult, runPlan, type TimedPieceRecord } from '../../src/executor/run.js';
import type { Plan } from '../../src/scheduler/schedule.js';
import { Planner, wholeOn, widestSplit, withGenome } from './executor-fixtures.js';

const planner = new Planner();

function expectConsistentTimeline(plan: Plan, result: RunResult): void {
  expect(result.pieces.length).toBeGreaterThan(0);
  for (const p of result.pieces) {
    expect(p.start).toBeGreaterThanOrEqual(0);
    expect(p.finish).toBeGreaterThanOrEqual(p.start);
    expect(result.makespan).toBeGreaterThanOrEqual(p.finish);
  }
  // One piece at a time per device.
  const byDevice = new Map<string, TimedPieceRecord[]>();
  for (const p of result.pieces) byDevice.set(p.device, [...(byDevice.get(p.device) ?? []), p]);
  for (const [device, ps] of byDevice) {
    const sorted = [...ps].sort((a, b) => a.start - b.start);
    for (let i = 1; i < sorted.length; i++)
      expect(sorted[i]!.start, `${device}: ${sorted[i]!.op} overlaps ${sorted[i - 1]!.op}`).toBeGreaterThanOrEqual(sorted[i - 1]!.finish);
  }
  // An operator's pieces start after every piece of the operators producing its operands.
  const { bound } = plan.problem;
  for (const op of bound.ops) {
    const producers = op.operands
      .map((v) => bound.values[v]!.producer)
      .filter((p) => p >= 0)
      .map((p) => bound.ops[p]!.id);
    const ready = Math.max(0, ...result.pieces.filter((p) => producers.includes(p.op)).map((p) => p.finish));
    for (const p of result.pieces.filter((q) => q.op === op.id)) expect(p.start, `${op.id} starts before its operands exist`).toBeGreaterThanOrEqual(ready);
  }
}

describe.each(['gcn', 'sage', 'pagerank', 'msbfs'])('the timeline of %s', (name) => {
  it.each(['chosen', 'three-way'] as const)('is consistent for the %s mapping', async (mapping) => {
    const base = await planner.plan(name);
    const plan = mapping === 'chosen' ? base : withGenome(base, widestSplit(base, 3));
    expectConsistentTimeline(plan, await runPlan(plan, { replan: false }));
  });
});

describe('sage branches', () => {
  it.each([
    ['cgra', 'cpu'],
    ['cpu', 'cgra'],
    ['gpu', 'cgra'],
  ] as const)('self on %s and neighbours on %s run at once', async (selfDevice, neighDevice) => {
    const base = await planner.plan('sage');
    const ops = base.problem.bound.ops.map((o) => o.id);
    const self = ops.indexOf('self');
    const neigh = ops.indexOf('neigh');
    const genome = Int32Array.from(base.chosen.genome);
    genome[self] = wholeOn(base, self, selfDevice);
    genome[neigh] = wholeOn(base, neigh, neighDevice);
    const plan = withGenome(base, genome);
    const result = await runPlan(plan, { replan: false });
    expectConsistentTimeline(plan, result);

    const s = result.pieces.find((p) => p.op === 'self')!;
    const n = result.pieces.find((p) => p.op === 'neigh')!;
    expect([s.device, n.device]).toEqual([selfDevice, neighDevice]);
    expect(s.finish).toBeGreaterThan(s.start);
    expect(n.finish).toBeGreaterThan(n.start);
    // The intervals intersect.
    expect(s.start).toBeLessThan(n.finish);
    expect(n.start).toBeLessThan(s.finish);
  });
});
