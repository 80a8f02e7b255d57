// The operators the host computes are fitted per machine and precision (`dype calibrate` runs
// calibrateHostOperators): a fit for each precision of ReLU's calibration inputs, and a model
// given the fits prices an f64 ReLU by the f64 fit and an f32 one by the f32 fit, with basis
// `calibrated fit`, where a model without them prices it by the roofline.

import { expect, it } from 'vitest';
import { CostModel } from '../../src/cost/model.js';
import { fittedSeconds } from '../../src/cost/operator-fits.js';
import type { Precision } from '../../src/data/dense.js';
import { buildSystem } from '../../src/devices/system.js';
import { denseFeatures } from '../../src/generators/index.js';
import { calibrateOperator } from '../../src/operators/calibrate-op.js';
import { ModelCostSource } from '../../src/scheduler/costs.js';
import { bindWorkload } from '../../src/workloads/bind.js';
import { WorkloadBuilder } from '../../src/workloads/builder.js';

it('fits ReLU on the CPU per precision, and a model prices each precision by its own fit', async () => {
  const system = buildSystem({ name: 'cpu', devices: [{ name: 'cpu', backend: 'cpu' }], links: [] }, 'host-fits');
  const fits = await calibrateOperator('relu', system, { quick: true });
  expect(fits.map((f) => f.precision).sort()).toEqual(['f32', 'f64']);
  for (const f of fits) {
    expect(f.kind).toBe('relu');
    expect(f.samples).toBe(3);
    expect(f.secondsPerFlop + f.secondsPerByte).toBeGreaterThan(0);
  }
  const fitted = new CostModel(system);
  fitted.setOperatorFits(fits);
  const estimate = (model: CostModel, precision: Precision) => {
    const x = denseFeatures({ rows: 5000, cols: 48, precision, seed: 3 });
    const bound = bindWorkload(new WorkloadBuilder('r').dense('x', { rows: 5000, cols: 48 }).op('y', 'relu', ['x']).output('y').build(), { x }, { precision });
    return { whole: new ModelCostSource(bound, system, model).whole(bound.ops[0]!, 0), op: bound.ops[0]! };
  };
  for (const precision of ['f32', 'f64'] as const) {
    const { whole, op } = estimate(fitted, precision);
    expect(whole.basis).toBe('calibrated fit');
    const own = fits.find((f) => f.precision === precision)!;
    expect(whole.seconds).toBeCloseTo(fittedSeconds(own, op.flops, op.bytes), 15);
    expect(estimate(new CostModel(system), precision).whole.basis).toBe('roofline');
  }
  await system.dispose();
});
