// Idle power is billed only for the devices a mapping uses: a device that takes no part (left
// alone by the mapping, or excluded by the user) is free for other work or can be powered down.
// The old evaluator billed every device of the system over the makespan, so a CGRA alone paid
// for the idle GPU beside it (a 195x disagreement between `inspect --predict` and `explore`),
// and the 70 W idle GPU made min-energy equal min-time.

import { describe, expect, it } from 'vitest';
import { explore } from '../../src/scheduler/schedule.js';
import { smallGraph, specModel, twoDeviceSystem } from './schedule-fixtures.js';

const system = twoDeviceSystem();
const graph = smallGraph();

describe('idle energy', () => {
  it('bills no idle power for a device the mapping leaves alone: one operator alone costs what the model predicts', async () => {
    const model = specModel(system);
    const ex = await explore('spmm', graph, { system, model, params: { k: 16 } });
    const cgra = ex.baselines.find((b) => b.name === 'cgra alone')!;
    const m = ex.problem.evaluator.metrics(cgra.genome!);
    expect(m.busy[0]).toBe(0); // the GPU does nothing
    expect(m.idleEnergy).toBe(0);
    // The same figure as CostModel.predict (what `dype inspect --predict` prints), to the last bit.
    const op = ex.problem.bound.ops[0]!;
    const predicted = ex.problem.costs.whole(op, 1);
    expect(cgra.energy).toBe(predicted.joules);
    expect(cgra.time).toBe(predicted.seconds);
  });

  it('gives the same energy with the unused device excluded as with it present', async () => {
    const model = specModel(system);
    const all = await explore('spmm', graph, { system, model, params: { k: 16 } });
    const without = await explore('spmm', graph, { system, model, params: { k: 16 }, exclude: ['gpu'] });
    const a = all.baselines.find((b) => b.name === 'cgra alone')!;
    const b = without.baselines.find((x) => x.name === 'cgra alone')!;
    expect(b.energy).toBe(a.energy);
  });

  it('still bills a device the mapping uses for the time it waits', async () => {
    const model = specModel(system);
    const ex = await explore('gcn', graph, { system, model });
    const both = ex.front.concat(ex.dominated).find((p) => {
      const m = ex.problem.evaluator.metrics(p.genome);
      return m.busy[0]! > 0 && m.busy[1]! > 0;
    });
    expect(both).toBeDefined();
    const m = ex.problem.evaluator.metrics(both!.genome);
    const [gpu, cgra] = system.devices;
    const idle = gpu!.power.idleWatts * Math.max(0, m.makespan - m.busy[0]!) + cgra!.power.idleWatts * Math.max(0, m.makespan - m.busy[1]!);
    expect(m.idleEnergy).toBeCloseTo(idle, 12);
    expect(m.idleEnergy).toBeGreaterThan(0);
  });
});
