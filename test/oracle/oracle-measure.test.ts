// Oracle.measure runs every distinct piece of work of an exploration's space once on its device
// (simulators simulate, so once is enough) and labels how each cost was obtained: `simulated`
// for simulator kernels, `roofline` for dense operators on simulated devices. The oracle is the
// ground truth the planner is judged against, so no cost-model prediction may enter it.

import { describe, expect, it, vi } from 'vitest';
import { CostModel } from '../../src/cost/model.js';
import { Oracle } from '../../src/oracle/oracle.js';
import { explore } from '../../src/scheduler/schedule.js';
import { smallGraph, specModel, twoDeviceSystem } from '../scheduler/schedule-fixtures.js';

const graph = smallGraph();

/** The distinct (op, device, begin, end) pieces of the choices, by device. */
function pieces(choices: readonly (readonly { parts: readonly { device: number; begin: number; end: number }[] }[])[]): Map<string, number> {
  const m = new Map<string, number>();
  choices.forEach((cs, i) => cs.forEach((c) => c.parts.forEach((p) => m.set(`${i}/${p.device}/${p.begin}/${p.end}`, p.device))));
  return m;
}

describe('Oracle.measure', () => {
  it('simulates each distinct piece of a spmm space once', async () => {
    const system = twoDeviceSystem();
    const ex = await explore('spmm', graph, { system, model: specModel(system), splitRatios: [0.25, 0.5] });
    const runs = system.devices.map((d) => vi.spyOn(d, 'run'));
    const oracle = await Oracle.measure(ex.problem, system);
    const want = pieces(ex.problem.choices);
    expect(oracle.source.size).toBe(want.size);
    const perDevice = [0, 1].map((d) => [...want.values()].filter((x) => x === d).length);
    expect(runs.map((r) => r.mock.calls.length)).toEqual(perDevice);
    for (const k of want.keys()) expect(oracle.source.basis.get(k), k).toBe('simulated');
    // Each run covered exactly its piece's rows.
    const ranges = runs[0]!.mock.calls.map((c) => (c[2] === undefined ? 'whole' : `${c[2][0]}-${c[2][1]}`)).sort();
    const gpuPieces = [...want.entries()].filter(([, d]) => d === 0).map(([k]) => {
      const [, , b, e] = k.split('/').map(Number);
      return b === 0 && e === ex.problem.bound.ops[0]!.units ? 'whole' : `${b}-${e}`;
    });
    expect(ranges).toEqual(gpuPieces.sort());
  });

  it('labels dense operators on simulated devices as roofline costs', async () => {
    const system = twoDeviceSystem();
    const ex = await explore('gcn', graph, { system, model: specModel(system), splits: false });
    const oracle = await Oracle.measure(ex.problem, system);
    expect(oracle.source.size).toBe(pieces(ex.problem.choices).size);
    ex.problem.bound.ops.forEach((op, i) => {
      for (const d of [0, 1]) {
        const basis = oracle.source.basis.get(`${i}/${d}/0/${op.units}`);
        expect(basis, `${op.id} on ${d}`).toBe(op.kind === 'spmm' ? 'simulated' : 'roofline');
      }
    });
  });

  it('refuses to price a piece it did not run', async () => {
    const system = twoDeviceSystem();
    const ex = await explore('spmm', graph, { system, model: specModel(system), splits: false });
    const oracle = await Oracle.measure(ex.problem, system);
    expect(() => oracle.source.cost(ex.problem.bound.ops[0]!, 0, 0, 7)).toThrow(/^MeasuredCostSource: Y on device 0 \[0, 7\) was not executed$/);
  });

  it('never calls the cost model, to measure or to search', async () => {
    const system = twoDeviceSystem();
    const model = specModel(system);
    const ex = await explore('gcn', smallGraph(), { system, model, splitRatios: [0.5] });
    const spies = (['predictShape', 'predict', 'predictAll'] as const).map((m) => vi.spyOn(CostModel.prototype, m));
    const own = vi.spyOn(model, 'predictShape');
    const oracle = await Oracle.measure(ex.problem, system);
    oracle.optimum((m) => m.time);
    oracle.optimum((m) => m.time * m.energy);
    for (const s of [...spies, own]) expect(s).not.toHaveBeenCalled();
    // The spies do see calls when the planner runs, so silence above means something.
    await explore('spmm', smallGraph(2), { system, model: specModel(system) });
    expect(spies[0]).toHaveBeenCalled();
    vi.restoreAllMocks();
  });
});
