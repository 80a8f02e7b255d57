// schedule's `model` and `signal` are checked like its other options: something that is not a
// CostModel or an AbortSignal is an InvalidArgumentError naming the option, not a TypeError from
// the first place that used it.

import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors.js';
import { explore, schedule } from '../../src/scheduler/schedule.js';
import { smallGraph, specModel, twoDeviceSystem } from './schedule-fixtures.js';

const system = twoDeviceSystem();
const graph = smallGraph();

describe('schedule checks model and signal', () => {
  it('refuses a model that is not a CostModel', async () => {
    for (const model of [{}, 'quick', null, [specModel(system)]]) {
      const e = await schedule('gcn', graph, { system, model: model as never }).catch((x: Error) => x);
      expect(e, String(model)).toBeInstanceOf(InvalidArgumentError);
      expect((e as Error).message).toMatch(/^schedule: model must be a CostModel/);
    }
  });

  it('refuses a signal that is not an AbortSignal', async () => {
    for (const signal of [{}, 'stop', true, { aborted: false }]) {
      const e = await explore('gcn', graph, { system, model: specModel(system), signal: signal as never }).catch((x: Error) => x);
      expect(e, String(signal)).toBeInstanceOf(InvalidArgumentError);
      expect((e as Error).message).toMatch(/^explore: signal must be an AbortSignal/);
    }
  });

  it('still takes a real model and signal', async () => {
    const plan = await schedule('gcn', graph, { system, model: specModel(system), signal: new AbortController().signal, splitRatios: [0.5] });
    expect(plan.chosen.label).toMatch(/xw1:/);
  });
});
