// Before calibration the cost model still predicts, from each device's spec, and says so: every
// prediction is finite and positive, grows with the work, and carries the uncalibrated state.

import { describe, expect, it } from 'vitest';
import { CostModel } from '../../src/cost/model.js';
import { detectSystem } from '../../src/devices/system.js';
import { denseFeatures, generate } from '../../src/generators/index.js';

const system = await detectSystem();
const model = new CostModel(system, undefined, 'no calibration in this test');
const small = generate({ kind: 'kronecker', scale: 11, edgeFactor: 8, seed: 1 });
const large = generate({ kind: 'kronecker', scale: 14, edgeFactor: 8, seed: 1 });
const road = generate({ kind: 'grid', rows: 200, cols: 200, deleteFraction: 0.1, seed: 1 });

describe('uncalibrated cost model', () => {
  it('marks every device uncalibrated with the reason', () => {
    for (const d of system.devices) expect(model.state(d)).toEqual({ state: 'uncalibrated', reason: 'no calibration in this test' });
  });

  it('predicts finite positive time and energy for every device and operator', () => {
    const x = denseFeatures({ rows: small.cols, cols: 16, seed: 1 });
    const v = denseFeatures({ rows: small.cols, cols: 1, seed: 1 });
    for (const p of [
      ...model.predictAll({ kind: 'spmm' }, { a: small, x }),
      ...model.predictAll({ kind: 'spmv' }, { a: small, x: v }),
      ...model.predictAll({ kind: 'bfs', source: 0 }, { graph: small }),
      ...model.predictAll({ kind: 'msbfs', sources: Int32Array.of(0, 1, 2) }, { graph: small }),
    ]) {
      expect(p.seconds, `${p.device} ${p.operator}`).toBeGreaterThan(0);
      expect(p.joules, `${p.device} ${p.operator}`).toBeGreaterThan(0);
      expect(Number.isFinite(p.seconds) && Number.isFinite(p.joules)).toBe(true);
      expect(p.state).toBe('uncalibrated');
      expect(p.uncertainty).toBe(1);
    }
  });

  it('grows with the input, the width and the row range', () => {
    for (const d of system.devices) {
      const t = (a: typeof small, k: number, range?: readonly [number, number]): number =>
        model.predictShape(d, { kind: 'spmm', a, k, precision: 'f32', ...(range ? { range } : {}) }).seconds;
      expect(t(large, 16)).toBeGreaterThan(t(small, 16));
      expect(t(small, 64)).toBeGreaterThan(t(small, 4));
      expect(t(large, 16, [0, large.rows / 2])).toBeLessThan(t(large, 16));
    }
  });

  it('charges the simulated GPU per BFS level: a road grid costs more than a larger power-law graph', () => {
    const gpu = system.devices.find((d) => d.kind === 'gpu')!;
    const roadT = model.predict(gpu, { kind: 'bfs', source: 0 }, { graph: road }).seconds;
    const kronT = model.predict(gpu, { kind: 'bfs', source: 0 }, { graph: large }).seconds;
    expect(large.nnz).toBeGreaterThan(road.nnz);
    expect(roadT).toBeGreaterThan(kronT);
  });
});
