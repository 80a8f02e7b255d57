// keepValues: the run returns every operator's output, not only the workload's outputs, each
// equal to the reference; without it there is no `values`.

import { expect, it } from 'vitest';
import { runPlan } from '../../src/executor/run.js';
import { referenceValues } from '../../src/workloads/reference.js';
import { expectSameValue, Planner } from './executor-fixtures.js';

const planner = new Planner();

it('returns every operator output with keepValues, none without', async () => {
  const plan = await planner.plan('gcn');
  const { bound } = plan.problem;
  const kept = await runPlan(plan, { replan: false, keepValues: true });
  const ref = referenceValues(bound);
  expect(Object.keys(kept.values!).sort()).toEqual(bound.ops.map((o) => o.id).sort());
  for (const op of bound.ops) expectSameValue(kept.values![op.id], ref[op.output]!, op.id);
  expect(Object.keys(kept.outputs)).toEqual(['agg2']);
  const plain = await runPlan(plan, { replan: false });
  expect(plain.values).toBeUndefined();
  await expect(runPlan(plan, { keepValues: 'yes' as never })).rejects.toThrow('runPlan: keepValues must be true or false, got "yes"');
});
