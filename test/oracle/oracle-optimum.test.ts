// The oracle's optimum is the best mapping by executed costs: no single-device mapping beats it.

import { expect, it } from 'vitest';
import { singleDeviceGenome } from '../../src/scheduler/baselines.js';
import { Oracle } from '../../src/oracle/oracle.js';
import { explore } from '../../src/scheduler/schedule.js';
import { smallGraph, specModel, twoDeviceSystem } from '../scheduler/schedule-fixtures.js';

it('finds a mapping at least as fast, and one at least as frugal, as every device alone', async () => {
  const system = twoDeviceSystem();
  const ex = await explore('spmm', smallGraph(), { system, model: specModel(system) });
  const oracle = await Oracle.measure(ex.problem, system);
  const fastest = oracle.optimum((m) => m.time);
  expect(fastest.exhaustive).toBe(true);
  expect(fastest.value).toBe(oracle.metrics(fastest.genome).makespan);
  const frugal = oracle.optimum((m) => m.energy);
  expect(frugal.value).toBe(oracle.metrics(frugal.genome).energy);
  for (const d of [0, 1]) {
    const alone = oracle.metrics(singleDeviceGenome(ex.problem.choices, d)!);
    expect(fastest.value).toBeLessThanOrEqual(alone.makespan);
    expect(frugal.value).toBeLessThanOrEqual(alone.energy);
  }
  // Exhaustive: no mapping of the space beats it.
  const out = new Float64Array(4);
  for (let c = 0; c < ex.problem.choices[0]!.length; c++) {
    oracle.evaluator.evaluate(Int32Array.of(c), out);
    expect(out[0]).toBeGreaterThanOrEqual(fastest.value);
  }
});

it('reports no optimum when nothing is feasible', async () => {
  const system = twoDeviceSystem();
  const ex = await explore('spmm', smallGraph(), { system, model: specModel(system), splits: false });
  const oracle = new Oracle(ex.problem.bound, system, ex.problem.choices, (await Oracle.measure(ex.problem, system)).source, { deadline: 1e-12 });
  const best = oracle.optimum((m) => m.time);
  expect(best.value).toBe(Infinity);
  expect(best.genome).toHaveLength(0);
});
