// Calibration fits coefficients that reproduce the devices' own costs: on a system of the two
// simulators (deterministic, fast), predictions for inputs of the calibration families are close
// to what the simulators report, the model says it is calibrated, and online observations pull
// predictions toward what was observed.

import { describe, expect, it } from 'vitest';
import { calibrate } from '../../src/cost/calibrate.js';
import { CostModel } from '../../src/cost/model.js';
import { buildSystem } from '../../src/devices/system.js';
import { denseFeatures, generate, type GeneratorSpec } from '../../src/generators/index.js';

const system = buildSystem({
  name: 'simulators',
  devices: [
    { name: 'gpu', backend: 'gpu-sim' },
    { name: 'cgra', backend: 'cgra-sim' },
  ],
  links: [{ between: ['host', 'gpu'], profile: 'pcie-gen5-x16' }],
});
const inputs: GeneratorSpec[] = [
  { kind: 'kronecker', scale: 9, edgeFactor: 8, seed: 1 },
  { kind: 'kronecker', scale: 12, edgeFactor: 16, seed: 2 },
  { kind: 'erdos-renyi', n: 3000, m: 20000, directed: true, seed: 3 },
  { kind: 'erdos-renyi', n: 20000, m: 100000, directed: true, seed: 4 },
  { kind: 'grid', rows: 40, cols: 40, seed: 5 },
  { kind: 'grid', rows: 120, cols: 90, deleteFraction: 0.2, seed: 6 },
  { kind: 'banded', n: 4000, halfBandwidth: 6, seed: 7 },
  { kind: 'banded', n: 20000, halfBandwidth: 20, seed: 8 },
  // BFS has nine terms: at least nine graphs.
  { kind: 'kronecker', scale: 10, edgeFactor: 4, seed: 9 },
  { kind: 'grid', rows: 30, cols: 200, seed: 10 },
];
const payload = await calibrate(system, { quick: true, inputs });
const model = new CostModel(system, payload);

describe('calibrated cost model', () => {
  it('reports calibrated state and fit errors', () => {
    for (const d of system.devices) expect(model.state(d).state).toBe('calibrated');
    for (const d of payload.devices) {
      for (const op of ['spmm', 'spmv', 'bfs', 'msbfs'] as const) {
        const fit = d.operators[op];
        expect(fit, `${d.key} ${op}`).toBeDefined();
        expect(fit!.samples).toBeGreaterThanOrEqual(inputs.length);
        expect(fit!.time.every((c) => c >= 0)).toBe(true);
      }
    }
  });

  it('predicts a held-out input of a calibrated family within 35% of the simulators', async () => {
    const a = generate({ kind: 'kronecker', scale: 11, edgeFactor: 12, seed: 77 });
    const x = denseFeatures({ rows: a.cols, cols: 16, seed: 1 });
    for (const d of system.devices) {
      const p = model.predict(d, { kind: 'spmm' }, { a, x });
      const r = await d.run({ kind: 'spmm' }, { a, x });
      expect(Math.abs(p.seconds - r.seconds) / r.seconds, `${d.name} spmm time`).toBeLessThan(0.35);
      expect(Math.abs(p.joules - r.joules) / r.joules, `${d.name} spmm energy`).toBeLessThan(0.35);
      expect(p.state).toBe('calibrated');
      expect(p.uncertainty).toBeLessThan(1);
    }
  });

  it('learns from observations: a device twice as slow as predicted is predicted slower after a few runs', async () => {
    const m = new CostModel(system, payload);
    const a = generate({ kind: 'grid', rows: 60, cols: 60, seed: 9 });
    const x = denseFeatures({ rows: a.cols, cols: 8, seed: 2 });
    const before = m.predict('gpu', { kind: 'spmm' }, { a, x });
    for (let i = 0; i < 6; i++) {
      const p = m.predict('gpu', { kind: 'spmm' }, { a, x });
      m.observe(p, {
        device: 'gpu',
        operator: 'spmm',
        output: x,
        seconds: before.seconds * 2,
        joules: before.joules * 2,
        source: 'simulated',
        energySource: 'simulated',
        counters: {},
      });
    }
    const after = m.predict('gpu', { kind: 'spmm' }, { a, x });
    expect(after.seconds / before.seconds).toBeCloseTo(2, 5);
    expect(m.predict('cgra', { kind: 'spmm' }, { a, x }).seconds).toBe(model.predict('cgra', { kind: 'spmm' }, { a, x }).seconds);
  });
});
