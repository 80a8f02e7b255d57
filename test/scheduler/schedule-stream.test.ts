// Streams: a stream workload plans on the first of its inputs for time per input (the period),
// which is at most the latency of one input; a sequence given to a one-input workload is refused.

import { expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { workload } from '../../src/workloads/library.js';
import { smallGraph, specModel, twoDeviceSystem } from './schedule-fixtures.js';

const system = twoDeviceSystem();
const model = specModel(system);
const inputs = [smallGraph(1), smallGraph(2), smallGraph(3)];
const base = { system, model, splitRatios: [0.5] };
const streamPlan = schedule(workload('stream:gcn'), inputs, base);

it('plans a stream of three inputs by the period', async () => {
  const plan = await streamPlan;
  expect(plan.stream).toBe(true);
  expect(plan.workload).toBe('gcn');
  expect(plan.chosen.time).toBe(plan.predicted.period);
  expect(plan.chosen.latency).toBe(plan.predicted.makespan);
  expect(plan.chosen.time).toBeLessThanOrEqual(plan.chosen.latency);
  expect(plan.predicted.throughput).toBeCloseTo(1 / plan.chosen.time, 6);
  expect(plan.explanation.summary.join('\n')).toMatch(/ per input and /);
  // Planned on the first input: the same front as the stream of that input alone.
  const first = await schedule(workload('stream:gcn'), [inputs[0]!], base);
  expect(plan.front.map((p) => [p.label, p.time])).toEqual(first.front.map((p) => [p.label, p.time]));
});

it('pipelines: the stream plan takes less time per input than the one-input plan', async () => {
  const stream = await streamPlan;
  const once = await schedule('gcn', inputs[0]!, base);
  expect(stream.chosen.time).toBeLessThan(once.chosen.time);
});

it('refuses a sequence for a one-input workload, and an empty stream', async () => {
  const e = await schedule('gcn', inputs, base).catch((x: unknown) => x);
  expect(e).toBeInstanceOf(InvalidArgumentError);
  expect((e as Error).message).toBe('schedule: gcn takes one input; pass a stream workload (streamOf or "stream:gcn") for a sequence');
  const empty = await schedule('stream:gcn', [], base).catch((x: unknown) => x);
  expect(empty).toBeInstanceOf(InvalidArgumentError);
  expect((empty as Error).message).toBe('schedule: the stream of inputs is empty');
});
