// runPlan computes what the plain TypeScript reference computes, for every shipped workload and
// the mappings two policies pick on a machine of a real CPU and two simulators.

import { describe, expect, it } from 'vitest';
import { runPlan } from '../../src/executor/run.js';
import { expectReferenceOutputs, Planner, WORKLOADS } from './executor-fixtures.js';

const planner = new Planner();

describe.each(WORKLOADS)('runPlan(%s)', (name) => {
  it.each(['min-time', 'min-energy'] as const)('under %s returns the reference outputs', async (policy) => {
    const plan = await planner.plan(name, policy);
    const result = await runPlan(plan);
    expectReferenceOutputs(plan, result);
  });
});

describe.each(['spmm', 'gcn', 'sage'])('runPlan(%s) in double precision', (name) => {
  it('returns Float64Array outputs equal to the reference', async () => {
    const plan = await planner.plan(name, 'min-time', 'f64');
    const result = await runPlan(plan);
    for (const v of Object.values(result.outputs)) expect((v as { data?: unknown }).data).toBeInstanceOf(Float64Array);
    expectReferenceOutputs(plan, result);
  });
});
