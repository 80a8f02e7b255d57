// A run prices the pieces of every choice of every operator at its start only when it may re-plan
// (a re-plan reads them all, frozen before the run teaches the model). Without re-planning it
// prices the mapping in force: pricing the whole space first was three quarters of a tiny job's
// runPlan, and the served tiny request paid it too.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { runPlan } from '../../src/executor/run.js';
import { ModelCostSource } from '../../src/scheduler/costs.js';
import { Planner } from './executor-fixtures.js';

const callThrough = ModelCostSource.prototype.cost;

/** The distinct pieces (operator, device, range) a run asks the model to price. */
async function piecesPriced(replan: boolean): Promise<{ priced: number; inForce: number; space: number }> {
  const planner = new Planner();
  const plan = await planner.plan('gcn');
  const seen = new Set<string>();
  const spy = vi.spyOn(ModelCostSource.prototype, 'cost');
  spy.mockImplementation(function (this: ModelCostSource, op, d, b, e) {
    seen.add(`${op.index}/${d}/${b}/${e}`);
    return callThrough.call(this, op, d, b, e);
  });
  await runPlan(plan, replan ? { learn: false } : { replan: false, learn: false });
  spy.mockRestore();
  const { choices } = plan.problem;
  const key = (i: number, p: { device: number; begin: number; end: number }): string => `${i}/${p.device}/${p.begin}/${p.end}`;
  const inForce = new Set(Array.from(plan.chosen.genome, (c, i) => choices[i]![c]!.parts.map((p) => key(i, p))).flat()).size;
  const space = new Set(choices.flatMap((cs, i) => cs.flatMap((ch) => ch.parts.map((p) => key(i, p))))).size;
  return { priced: seen.size, inForce, space };
}

describe('runPlan pricing', () => {
  afterEach(() => vi.restoreAllMocks());

  it('prices only the mapping in force when it will not re-plan', async () => {
    const { priced, inForce, space } = await piecesPriced(false);
    expect(space).toBeGreaterThan(4 * inForce);
    expect(priced).toBe(inForce);
  });

  it('prices every choice at the start when it may re-plan', async () => {
    const { priced, space } = await piecesPriced(true);
    expect(priced).toBe(space);
  });
});
