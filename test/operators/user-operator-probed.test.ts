// A user operator with no cost terms is measured by the planner's probes on the CPU (its code is
// run on this input and timed), and priced by a roofline on the simulators.

import { afterAll, expect, it } from 'vitest';
import { CostModel } from '../../src/cost/model.js';
import { undefineOperator } from '../../src/operators/define.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { WorkloadBuilder } from '../../src/workloads/builder.js';
import { mixedSystem, smallGraph } from '../executor/executor-fixtures.js';
import { defineRowScale } from './user-fixtures.js';

defineRowScale();
afterAll(() => undefineOperator('row-scale'));

it('is probed on the CPU and priced by the roofline on a simulator', async () => {
  const w = new WorkloadBuilder('probed')
    .sparse('A', { square: true })
    .dense('X', { rows: 'A.rows', cols: 8, generate: 'random' })
    .op('s', 'row-scale', ['A', 'X'])
    .output('s')
    .build();
  const system = mixedSystem();
  const plan = await schedule(w, smallGraph(), { system, model: new CostModel(system) });
  const op = plan.problem.bound.ops[0]!;
  const cpu = system.devices.findIndex((d) => d.name === 'cpu');
  const gpu = system.devices.findIndex((d) => d.name === 'gpu');
  expect(plan.problem.costs.whole(op, cpu).basis).toBe('probed');
  expect(plan.problem.costs.whole(op, gpu).basis).toBe('roofline');
  await system.dispose();
});
