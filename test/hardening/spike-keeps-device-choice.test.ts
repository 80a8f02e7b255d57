// One outlier timing does not flip a device choice: after the model has settled on observations
// that agree with it, a single run 50x slower than predicted on the device the plan picked leaves
// the plan's choice (and the prediction) where it was.

import { expect, it } from 'vitest';
import { CostModel } from '../../src/cost/model.js';
import type { DeviceResult } from '../../src/devices/device.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { mixedSystem, smallGraph } from '../executor/executor-fixtures.js';

it('a single 50x spike on the chosen device leaves the plan unchanged', async () => {
  const system = mixedSystem();
  const model = new CostModel(system);
  const graph = smallGraph(3);
  // The model alone decides (no probes): a probe of the real CPU, timed afresh by each call, moved
  // the choice between a near-tied CPU and CGRA under the sanitisers, which is not what this tests.
  const before = await schedule('bfs', graph, { system, model, probe: false });
  const device = before.chosen.label.split(':')[1]!.trim();
  const op = { kind: 'bfs' as const, source: 0 };
  const observe = (factor: number) => {
    const p = model.predict(device, op, { graph });
    model.observe(p, { device, operator: 'bfs', seconds: p.seconds * factor, joules: p.joules * factor } as DeviceResult);
  };
  for (let i = 0; i < 10; i++) observe(1); // settled: reality agrees with the model
  const settled = model.predict(device, op, { graph }).seconds;
  observe(50);
  expect(model.predict(device, op, { graph }).seconds).toBeCloseTo(settled, 12);
  const after = await schedule('bfs', graph, { system, model, probe: false });
  expect(after.chosen.label).toBe(before.chosen.label);
  // And the spike was seen: a steady 50x slowdown does move the model (this test can fail).
  for (let i = 0; i < 10; i++) observe(50);
  expect(model.predict(device, op, { graph }).seconds).toBeGreaterThan(2 * settled);
});
