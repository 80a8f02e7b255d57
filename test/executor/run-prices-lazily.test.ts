// A run prices its pieces when first asked, at the cost model's online correction as it stood
// when the run started (learning changes nothing else), instead of pricing every piece of every
// choice up front: that was about 70% of a tiny job's runPlan, and the served tiny request paid
// it too. The figures must be those the up-front pricing gave, however much the run has taught
// the model since.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { runPlan } from '../../src/executor/run.js';
import { ModelCostSource } from '../../src/scheduler/costs.js';
import { Planner } from './executor-fixtures.js';

const callThrough = ModelCostSource.prototype.cost;

describe('runPlan pricing', () => {
  afterEach(() => vi.restoreAllMocks());

  it('prices only the pieces it runs when it does not re-plan', async () => {
    const plan = await new Planner().plan('gcn');
    const seen = new Set<string>();
    vi.spyOn(ModelCostSource.prototype, 'cost').mockImplementation(function (this: ModelCostSource, op, d, b, e) {
      seen.add(`${op.index}/${d}/${b}/${e}`);
      return callThrough.call(this, op, d, b, e);
    });
    await runPlan(plan, { replan: false, learn: false });
    const { choices } = plan.problem;
    const key = (i: number, p: { device: number; begin: number; end: number }): string => `${i}/${p.device}/${p.begin}/${p.end}`;
    const inForce = new Set(Array.from(plan.chosen.genome, (c, i) => choices[i]![c]!.parts.map((p) => key(i, p))).flat());
    const space = new Set(choices.flatMap((cs, i) => cs.flatMap((ch) => ch.parts.map((p) => key(i, p)))));
    expect(space.size).toBeGreaterThan(4 * inForce.size);
    expect([...seen].every((k) => inForce.has(k))).toBe(true);
  });

  it('prices a piece first asked after the model learned as it would have at the start', async () => {
    const planner = new Planner();
    const plan = await planner.plan('spmm');
    const { bound, system } = plan.problem;
    const op = bound.ops[0]!;
    const gpu = system.devices.findIndex((d) => d.name === 'gpu');
    const model = planner.model;
    const atStart = new ModelCostSource(bound, system, model).cost(op, gpu, 0, op.units);
    const startFactors = model.correctionFactors('gpu', 'spmm');
    const frozen = new ModelCostSource(bound, system, model, (d, kind) => (d === gpu && kind === 'spmm' ? startFactors : undefined));
    // The run teaches the model that the GPU's SpMM takes 20x its prediction.
    for (let k = 0; k < 60; k++) model.observeUncorrected('gpu', 'spmm', { seconds: 1e-3, joules: 1e-3 }, { seconds: 2e-2, joules: 2e-2 });
    const now = new ModelCostSource(bound, system, model).cost(op, gpu, 0, op.units);
    expect(now.seconds).toBeGreaterThan(5 * atStart.seconds);
    expect(frozen.cost(op, gpu, 0, op.units)).toEqual(atStart);
  });
});
