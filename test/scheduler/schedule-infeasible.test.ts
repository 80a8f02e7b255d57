// Constraints in schedule() and explore(): a deadline no mapping meets makes schedule() throw an
// InfeasibleError naming the deadline and explore() return an empty front that says why; a
// deadline or budget some mappings meet keeps exactly those.

import { describe, expect, it } from 'vitest';
import { InfeasibleError } from '../../src/errors.js';
import { explore, schedule } from '../../src/scheduler/schedule.js';
import { smallGraph, specModel, twoDeviceSystem } from './schedule-fixtures.js';

const system = twoDeviceSystem();
const model = specModel(system);
const graph = smallGraph();
const base = { system, model };
// 512 mappings: enough to trade time for energy; the model alone (no probes) so the explored front
// and the schedules price every mapping alike.
const gcnBase = { ...base, splitRatios: [0.5], probe: false };

describe('a deadline no mapping can meet', () => {
  it('makes schedule() throw InfeasibleError naming the deadline', async () => {
    const e = await schedule('spmm', graph, { ...base, deadline: 1e-9 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(InfeasibleError);
    expect((e as InfeasibleError).code).toBe('ERR_INFEASIBLE');
    expect((e as Error).message).toMatch(
      /^schedule: no mapping of \d+ evaluated satisfies the constraints; the best by time breaks them: deadline: [\d.]+ (s|ms|us) > 1\.00 ns \(\+[\d,]+%\)$/,
    );
  });

  it('gives explore() an empty front and the reason', async () => {
    const ex = await explore('spmm', graph, { ...base, deadline: 1e-9 });
    expect(ex.front).toEqual([]);
    expect(ex.dominated).toEqual([]);
    expect(ex.infeasible).toBe(ex.search.evaluated);
    expect(ex.empty?.reason).toMatch(/deadline: [\d.]+ (s|ms|us) > 1\.00 ns/);
    expect(ex.hypervolume.value).toBe(0);
  });
});

describe('constraints some mappings meet', () => {
  const free = explore('gcn', graph, gcnBase);

  it('a deadline keeps the mappings that finish in time', async () => {
    const f = await free;
    const all = [...f.front, ...f.dominated].map((p) => p.time).sort((a, b) => a - b);
    const deadline = all[Math.floor(all.length / 2)]!;
    const ex = await explore('gcn', graph, { ...gcnBase, deadline });
    expect(ex.front.length).toBeGreaterThan(0);
    for (const p of [...ex.front, ...ex.dominated]) expect(p.time).toBeLessThanOrEqual(deadline);
    expect(ex.infeasible).toBeGreaterThan(0);
    expect(ex.front.length + ex.dominated.length + ex.infeasible).toBe(ex.search.evaluated);
    expect(ex.empty).toBeUndefined();
  });

  it('fastest-within-budget and frugal-within-deadline pick the best point that fits', async () => {
    const f = (await free).front;
    expect(f.length).toBeGreaterThan(2);
    const budget = f[f.length - 2]!.energy; // rules out all but the two most frugal points
    const plan = await schedule('gcn', graph, { ...gcnBase, energyBudget: budget, policy: 'fastest-within-budget' });
    expect(plan.chosen.energy).toBeLessThanOrEqual(budget);
    expect(plan.chosen.time).toBe(f[f.length - 2]!.time);
    const frugal = await schedule('gcn', graph, { ...gcnBase, deadline: f[1]!.time, policy: 'frugal-within-deadline' });
    expect(frugal.chosen.time).toBeLessThanOrEqual(f[1]!.time);
    expect(frugal.chosen.energy).toBe(f[1]!.energy);
  });
});
