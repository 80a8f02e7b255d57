// A real device's parts are probed at different moments of a machine whose speed moves, so each
// part priced at its own moment made prices that do not grow with the work: a CPU SpMM of 4elt
// was priced at 198 us whole and 110 us for 96% of its rows, and the 4% left to a simulated CGRA
// looked like a gain. A real device's parts are priced from one shape at one level (the readings
// taken since the shape); a simulator's part run exactly still costs what it cost.

import { describe, expect, it } from 'vitest';
import { generate } from '../../src/generators/index.js';
import type { ModelCostSource } from '../../src/scheduler/costs.js';
import { ProbedCostSource } from '../../src/scheduler/probed-costs.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { cpuCgraSystem, specModel } from './schedule-fixtures.js';

describe('the price of a real device part', () => {
  const system = cpuCgraSystem();

  it('grows with the work however the readings moved, where a simulator keeps what it ran', async () => {
    const graph = generate({ kind: 'grid', rows: 40, cols: 40, seed: 1 });
    const plan = await schedule('spmm', graph, { system, model: specModel(system), params: { k: 8 }, probe: false });
    const op = plan.problem.bound.ops[0]!;
    const n = op.units;
    const cut = Math.round(0.96 * n);
    const costs = new ProbedCostSource(plan.problem.costs as ModelCostSource);
    const profile = { cells: [0, n], rates: [{ seconds: 1e-8, joules: 1e-7 }], fixed: { seconds: 2e-6, joules: 2e-5 } };
    for (const d of [0, 1]) costs.setProfile(op.index, d, profile);
    const shape = costs.cost(op, 0, 0, cut);
    const whole = costs.cost(op, 0, 0, n);
    expect(shape.seconds).toBeLessThan(whole.seconds);
    // A later reading of the 96% part ran twice the shape's price (a slow spell).
    for (const d of [0, 1]) costs.setObservedPart(op.index, d, 0, cut, { seconds: 2 * shape.seconds, joules: 2 * shape.joules });
    // The real device: the whole is priced at the same level, so it still costs more than its part.
    expect(costs.cost(op, 0, 0, cut).seconds).toBeCloseTo(2 * shape.seconds, 12);
    expect(costs.cost(op, 0, 0, n).seconds).toBeCloseTo(2 * whole.seconds, 12);
    expect(costs.cost(op, 0, 0, n).joules).toBeCloseTo(2 * whole.joules, 12);
    // The simulator: the part it ran costs what it cost, the rest its profile.
    expect(costs.cost(op, 1, 0, cut).seconds).toBe(2 * shape.seconds);
    expect(costs.cost(op, 1, 0, n).seconds).toBeCloseTo(whole.seconds, 12);
    // A new shape starts from its own level again.
    costs.setProfile(op.index, 0, profile);
    expect(costs.cost(op, 0, 0, n).seconds).toBeCloseTo(whole.seconds, 12);
  });
});
