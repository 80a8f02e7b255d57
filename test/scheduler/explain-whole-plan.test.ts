// An operator whose choice is not its fastest device is explained by what the whole plan gains
// (its copies and what runs beside it), priced by moving that operator alone to the fastest
// device: not by guesses such as "or leaving gpu free for other operators", which the default
// explore printed for a GEMM split that won by copying less to the GPU.

import { describe, expect, it } from 'vitest';
import { explain } from '../../src/scheduler/explain.js';
import { mappingPoint } from '../../src/scheduler/front.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { formatJoules, formatSeconds } from '../../src/units.js';
import { smallGraph, specModel, twoDeviceSystem } from './schedule-fixtures.js';

describe('explaining a choice by the whole plan', () => {
  it('prices the plan with the operator on its fastest device and says which is better', async () => {
    const system = twoDeviceSystem();
    const plan = await schedule('gcn', smallGraph(), { system, model: specModel(system), probe: false, splitRatios: [0.5] });
    const { problem } = plan;
    const { table, evaluator, bound } = problem;
    // xw1 split half and half (slower for the operator than its fastest device alone), the rest as chosen.
    const i = bound.ops.findIndex((o) => o.id === 'xw1');
    const split = table.choices[i]!.findIndex((c) => c.parts.length === 2);
    const genome = Int32Array.from(plan.chosen.genome);
    genome[i] = split;
    const chosen = mappingPoint(problem, genome);
    const predicted = evaluator.metrics(genome);
    const { system: sys, model, costs } = problem;
    const x = explain({ bound, system: sys, model, costs, table, exploration: plan, chosen, predicted, evaluator, policy: plan.policyRule });
    const reason = x.operators[i]!.reason;
    const fastest = x.operators[i]!.alternatives[0]!.device;
    const d = system.devices.findIndex((dev) => dev.name === fastest);
    const other = Int32Array.from(genome);
    other[i] = table.choices[i]!.findIndex((c) => c.parts.length === 1 && c.parts[0]!.device === d);
    const m = evaluator.metrics(other);
    expect(reason).toContain(
      `${formatSeconds(predicted.makespan)} / ${formatJoules(predicted.energy)} against ${formatSeconds(m.makespan)} / ${formatJoules(m.energy)} with it on ${fastest} alone`,
    );
    expect(reason).toMatch(/the whole plan (is faster|uses less energy|gains nothing)/);
    expect(reason).not.toMatch(/free for other operators/);
  });
});
