// Baselines in every exploration: each allowed device alone and HEFT, and with staticMapping a
// mapping carried over from other data, evaluated on this input.

import { describe, expect, it } from 'vitest';
import { explore, schedule } from '../../src/scheduler/schedule.js';
import { gridInput, smallGraph, specModel, twoDeviceSystem } from './schedule-fixtures.js';

const system = twoDeviceSystem();
const model = specModel(system);
const graph = smallGraph();
const base = { system, model, splitRatios: [0.5] };
const minTime = schedule('gcn', graph, base);

describe('baselines', () => {
  it('has each device alone and HEFT, no faster than the chosen mapping', async () => {
    const plan = await minTime;
    expect(plan.baselines.map((b) => b.name)).toEqual(['gpu alone', 'cgra alone', 'heft']);
    for (const b of plan.baselines) {
      expect(b.feasible, b.name).toBe(true);
      expect(b.time).toBeGreaterThanOrEqual(plan.chosen.time);
    }
    for (const d of ['gpu', 'cgra']) {
      const b = plan.baselines.find((x) => x.name === `${d} alone`)!;
      expect(b.label).toBe(plan.problem.bound.ops.map((o) => `${o.id}:${d}`).join(', '));
    }
  });

  it('adds the static mapping, as the plan made on the same input', async () => {
    const plan = await schedule('gcn', graph, { ...base, policy: 'min-energy' });
    const same = await explore('gcn', graph, { ...base, staticMapping: plan.mapping });
    const s = same.baselines.find((b) => b.name === 'static')!;
    expect(same.baselines.at(-1)).toBe(s);
    expect(s.feasible).toBe(true);
    expect(s.label).toBe(plan.chosen.label);
    expect([s.time, s.energy]).toEqual([plan.chosen.time, plan.chosen.energy]);
  });

  it('evaluates the static mapping on another input, by the nearest shares', async () => {
    const plan = await minTime;
    const other = await explore('gcn', gridInput(), { ...base, staticMapping: plan.mapping });
    const s = other.baselines.find((b) => b.name === 'static')!;
    expect(s.feasible).toBe(true);
    expect(s.time).toBeGreaterThan(0);
    expect(s.label!.split(', ').map((x) => x.split(':')[0])).toEqual(other.operators.map((o) => o.id));
  });

  it('reports a static mapping of another workload as missing', async () => {
    const plan = await schedule('spmm', graph, base);
    const ex = await explore('gcn', graph, { ...base, staticMapping: plan.mapping });
    const s = ex.baselines.find((b) => b.name === 'static')!;
    expect(s.feasible).toBe(false);
    expect(s.time).toBeUndefined();
    expect(s.reason).toMatch(/^it has no entry for operator "xw1" \(the workload.s operators: xw1, agg1, h1, xw2, agg2\)$/);
  });
});
