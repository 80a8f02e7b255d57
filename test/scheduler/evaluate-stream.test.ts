// A stream is judged per input in steady state: the period is the busiest device's (or link's)
// time per input, so a two-stage pipeline on two devices has a period below its latency, and the
// energy per input counts idle power over the period, not over the latency.

import { describe, expect, it } from 'vitest';
import { Evaluator } from '../../src/scheduler/evaluate.js';
import { buildChoices } from '../../src/scheduler/candidates.js';
import { CostTable } from '../../src/scheduler/space.js';
import { bindWorkload } from '../../src/workloads/bind.js';
import { streamOf } from '../../src/workloads/definition.js';
import { workload } from '../../src/workloads/library.js';
import { bindChain, chainWorkload, FixedCosts, genomeOf, smallGraph, twoDeviceSystem, uniformCosts } from './schedule-fixtures.js';

const system = twoDeviceSystem();

describe('a two-stage pipeline on two devices', () => {
  const bound = bindChain(smallGraph(), streamOf(chainWorkload));
  const choices = buildChoices(bound, system, [0, 1], { splits: false }, () => 1);
  const table = new CostTable(choices, bound.ops, new FixedCosts({ Y: [1, 1], H: [2, 2] }, { Y: [1, 1], H: [5, 5] }));
  const evaluator = new Evaluator(bound, system, table, ['time', 'latency', 'energy']);
  const g = genomeOf(choices, ['cgra', 'gpu']);

  it('has the busiest device as its period, below the latency of one input', () => {
    const m = evaluator.metrics(g);
    expect(m.busy).toEqual([2, 1]);
    expect(m.period).toBe(2);
    expect(m.throughput).toBe(0.5);
    expect(m.makespan).toBeGreaterThan(3); // 1 s + 2 s + the copies
    const out = new Float64Array(3);
    expect(evaluator.evaluate(g, out)).toBe(true);
    expect([out[0], out[1]]).toEqual([m.period, m.makespan]); // time is the period, latency the makespan
  });

  it('charges idle power over the period', () => {
    const m = evaluator.metrics(g);
    const cgra = system.devices[1]!;
    expect(m.idleEnergy).toBeCloseTo(cgra.power.idleWatts * (2 - 1), 12); // the GPU is busy the whole period
    expect(m.energy).toBeCloseTo(6 + m.idleEnergy, 12);
  });

  it('is the sum of the stages on one device', () => {
    expect(evaluator.metrics(genomeOf(choices, ['cgra', 'cgra'])).period).toBe(3);
  });
});

// Copies of one run overlap on a link, so summing them could exceed the latency of one input;
// the period never does, since running inputs back to back already achieves the latency.
it('a stream period never exceeds the latency of one input (copies share a link in the makespan but not in the period)', () => {
  const bound = bindWorkload(workload('stream:gcn'), smallGraph());
  const choices = buildChoices(bound, system, [0, 1], { splits: false }, () => 1);
  const table = new CostTable(choices, bound.ops, uniformCosts(bound, [1e-7, 1e-7]));
  const m = new Evaluator(bound, system, table, ['time', 'energy']).metrics(genomeOf(choices, ['gpu', 'gpu', 'gpu', 'gpu', 'gpu']));
  expect(m.period).toBeLessThanOrEqual(m.makespan);
});
