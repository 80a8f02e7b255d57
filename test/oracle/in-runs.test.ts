// compareInRuns: two plans run whole with runPlan, alternately, compared round by round, the way
// a user meets the mappings (the oracle composes pieces timed apart). On simulated devices every
// run is exact, so the ratio is the two runs' own ratio in every round.

import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors.js';
import { runPlan } from '../../src/executor/run.js';
import { compareInRuns, runValue } from '../../src/oracle/in-runs.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { smallGraph, specModel, twoDeviceSystem } from '../scheduler/schedule-fixtures.js';

const graph = smallGraph();
const system = twoDeviceSystem();
const model = specModel(system);
const whole = (device: string) => [{ op: 'Y', devices: [device], shares: [1] }];
const planOn = (device: string) => schedule('spmm', graph, { system, model, probe: false, fixedMapping: whole(device), maxPoints: 0 });

describe('compareInRuns', () => {
  it("gives the ratio of the two mappings' runs, for each objective, in every round", async () => {
    const [gpu, cgra] = await Promise.all([planOn('gpu'), planOn('cgra')]);
    expect(gpu.chosen.label).not.toBe(cgra.chosen.label);
    const once = { replan: false, learn: false, bfsLevels: false } as const;
    const [g, c] = [await runPlan(gpu, once), await runPlan(cgra, once)];
    for (const objective of ['min-time', 'min-energy', 'min-edp'] as const) {
      const expected = runValue(objective, c) / runValue(objective, g);
      const r = await compareInRuns(cgra, gpu, objective, { rounds: 3 });
      expect(r.rounds).toBe(3);
      expect(r.median).toBeCloseTo(expected, 12);
      expect(r.lo).toBeCloseTo(expected, 12);
      expect(r.hi).toBeCloseTo(expected, 12);
      const back = await compareInRuns(gpu, cgra, objective, { rounds: 2 });
      expect(back.median).toBeCloseTo(1 / expected, 12);
    }
  });

  it('refuses one plan twice and a bad round count, naming the value', async () => {
    const gpu = await planOn('gpu');
    await expect(compareInRuns(gpu, gpu, 'min-time')).rejects.toThrow(InvalidArgumentError);
    const cgra = await planOn('cgra');
    await expect(compareInRuns(gpu, cgra, 'min-time', { rounds: 0 })).rejects.toThrow(/compareInRuns: rounds/);
  });

  it('stops at once when aborted', async () => {
    const [gpu, cgra] = await Promise.all([planOn('gpu'), planOn('cgra')]);
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(compareInRuns(gpu, cgra, 'min-time', { signal: controller.signal })).rejects.toThrow('stop');
  });
});
