// The decision suite's records carry the planner's predictions: for its pick, and for the
// oracle's best where the planner's own choices hold that mapping (same devices, shares within 5
// points), so a loss can be traced to the side the model mispriced.

import { describe, expect, it } from 'vitest';
import { predictedFigures } from '../../bench/scheduler/decision-suite.js';
import { buildSystem } from '../../src/devices/system.js';
import { portableMapping } from '../../src/scheduler/baselines.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { smallGraph } from '../scheduler/schedule-fixtures.js';

const system = buildSystem({
  name: 'cpu-cgra',
  devices: [
    { name: 'cpu', backend: 'cpu' },
    { name: 'cgra', backend: 'cgra-sim' },
  ],
});

describe("the suite's predicted figures", () => {
  it("price the pick as the plan did, and a best the planner's space holds", async () => {
    const plan = await schedule('gcn', smallGraph(), { system, probe: false, policy: 'min-time' });
    const own = portableMapping(plan.problem.bound, system, plan.problem.choices, plan.chosen.genome);
    const f = predictedFigures(plan, own);
    expect(f.pick.time).toBeCloseTo(plan.predicted.makespan, 12);
    expect(f.pick.energy).toBeCloseTo(plan.predicted.energy, 12);
    expect(f.best).toEqual(f.pick);
  });

  it('leave the best out where the planner has no mapping near it', async () => {
    const plan = await schedule('gcn', smallGraph(), { system, probe: false, policy: 'min-time' });
    // Every operator split 50/50 over a device the system lacks: nothing of the planner's is near it.
    const far = plan.problem.bound.ops.map((op) => ({ op: op.id, devices: ['cpu', 'gpu'], shares: [0.5, 0.5] }));
    expect(predictedFigures(plan, far).best).toBeUndefined();
  });
});
