// A user-defined operator in a declared workload: validated, bound, planned (only on the devices
// it has code for), run, and its output equal to its reference and to an independent computation.

import { afterAll, expect, it } from 'vitest';
import type { DenseMatrix } from '../../src/data/dense.js';
import { runPlan } from '../../src/executor/run.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { undefineOperator } from '../../src/operators/define.js';
import { WorkloadBuilder } from '../../src/workloads/builder.js';
import { bindWorkload } from '../../src/workloads/bind.js';
import { referenceValues } from '../../src/workloads/reference.js';
import { CostModel } from '../../src/cost/model.js';
import { expectSameValue, mixedSystem, smallGraph, withGenome } from '../executor/executor-fixtures.js';
import { defineRowScale, rowScale } from './user-fixtures.js';

defineRowScale();
afterAll(() => undefineOperator('row-scale'));

const scaled = new WorkloadBuilder('scaled')
  .sparse('A', { square: true })
  .dense('X', { rows: 'A.rows', cols: 8, generate: 'random' })
  .op('s', 'row-scale', ['A', 'X'])
  .op('y', 'relu', ['s'])
  .output('y')
  .build();

it('is bound, planned on its own devices, run, and equals the reference', async () => {
  const graph = smallGraph();
  const system = mixedSystem();
  const model = new CostModel(system);
  const plan = await schedule(scaled, graph, { system, model, probe: false });
  const op = plan.problem.bound.ops.find((o) => o.kind === 'row-scale')!;
  expect(op.units).toBe(graph.rows);
  // Offered on the CPU and the simulated GPU (it has code for both), never on the CGRA.
  const labels = plan.problem.choices[op.index]!.map((c) => c.label).join(' ');
  expect(labels).toMatch(/cpu/);
  expect(labels).toMatch(/gpu/);
  expect(labels).not.toMatch(/cgra/);

  const result = await runPlan(plan, { replan: false, learn: false, keepValues: true });
  const bound = bindWorkload(scaled, graph);
  const ref = referenceValues(bound);
  expectSameValue(result.values!['s']!, ref[bound.values.findIndex((v) => v.name === 's')]!, 's');
  expectSameValue(result.values!['y']!, ref[bound.outputs[0]!]!, 'y');
  // And against the computation written in the test, not through dype.
  const x = bound.values.find((v) => v.name === 'X')!.data as DenseMatrix;
  expectSameValue(result.values!['s']!, rowScale(bound.values.find((v) => v.name === 'A')!.data as never, x), 's (independent)');
  await system.dispose();
});

it('is split across devices when forced, and the parts join exactly', async () => {
  const graph = smallGraph();
  const system = mixedSystem();
  const model = new CostModel(system);
  const plan = await schedule(scaled, graph, { system, model, probe: false });
  const op = plan.problem.bound.ops.find((o) => o.kind === 'row-scale')!;
  const split = plan.problem.choices[op.index]!.findIndex((c) => c.parts.length === 2);
  expect(split).toBeGreaterThanOrEqual(0);
  const genome = Int32Array.from(plan.chosen.genome);
  genome[op.index] = split;
  const result = await runPlan(withGenome(plan, genome), { replan: false, learn: false, keepValues: true });
  const bound = bindWorkload(scaled, graph);
  expectSameValue(result.values!['s']!, referenceValues(bound)[bound.values.findIndex((v) => v.name === 's')]!, 's (split)');
  await system.dispose();
});
