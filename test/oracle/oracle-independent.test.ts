// The oracle knows nothing of the model: its space comes from the workload and the system alone,
// so two models (here: the spec-derived one, and one whose GPU predictions are 20x off) give the
// same oracle, point for point. The old oracle searched the planner's own candidates, whose split
// shares came from the model's predicted balance points: its "best" moved with the model (126 of
// 432 suite cases between a quick and a full calibration).

import { describe, expect, it } from 'vitest';
import type { CostModel } from '../../src/cost/model.js';
import type { System } from '../../src/devices/system.js';
import { Oracle } from '../../src/oracle/oracle.js';
import { explore } from '../../src/scheduler/schedule.js';
import { gridInput, smallGraph, specModel, threeDeviceSystem } from '../scheduler/schedule-fixtures.js';

/** A model that predicts the first GPU 20x slower than the spec says. */
function skewedModel(system: System): CostModel {
  const m = specModel(system);
  for (let k = 0; k < 40; k++) m.observeUncorrected('gpu', 'spmm', { seconds: 1e-3, joules: 1e-3 }, { seconds: 2e-2, joules: 2e-2 });
  return m;
}

describe('the oracle is independent of the model', () => {
  it('builds the same space and finds the same best mappings under two different models', async () => {
    const system = threeDeviceSystem();
    const graph = smallGraph();
    // Model-only planning (no probes), so the two planners' spaces follow their models.
    const a = await explore('gcn', graph, { system, model: specModel(system), probe: false });
    const b = await explore('gcn', graph, { system, model: skewedModel(system), probe: false });
    // The planners' spaces differ (their balance points follow their models)...
    expect(b.problem.choices.map((c) => c.map((x) => x.label))).not.toEqual(a.problem.choices.map((c) => c.map((x) => x.label)));
    const oa = await Oracle.build(a.problem);
    const ob = await Oracle.build(b.problem);
    // ...the oracles' do not.
    expect(ob.choices.map((c) => c.map((x) => x.label))).toEqual(oa.choices.map((c) => c.map((x) => x.label)));
    for (const o of ['min-time', 'min-energy', 'min-edp'] as const) {
      expect(ob.optimum(o).value, o).toBe(oa.optimum(o).value);
      expect(Array.from(ob.optimum(o).genome), o).toEqual(Array.from(oa.optimum(o).genome));
    }
  });

  it('puts a two-way split within 2% of any share: the grid every 4% plus measured balance points', async () => {
    const system = threeDeviceSystem();
    // A road-like grid: rows of even length, so a share lands within a row's weight of its target.
    const ex = await explore('spmm', gridInput(), { system, model: specModel(system) });
    const oracle = await Oracle.build(ex.problem);
    const shares = oracle.choices[0]!.filter((c) => c.parts.length === 2 && c.parts[0]!.device === 0 && c.parts[1]!.device === 1).map(
      (c) => c.parts[0]!.fraction,
    );
    for (let s = 0.02; s <= 0.98; s += 0.01) {
      const nearest = Math.min(...shares.map((x) => Math.abs(x - s)));
      expect(nearest, `share ${s.toFixed(2)}`).toBeLessThanOrEqual(0.02 + 0.002); // a row is about 0.1% of the entries
    }
  });
});
