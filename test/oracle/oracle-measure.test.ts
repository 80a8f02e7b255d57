// The oracle executes every distinct piece of its space once on its device (simulators simulate,
// so once is enough; a real device runs a warm-up and then repeats) and labels how each cost was
// obtained: `simulated` for simulator kernels, `roofline` for dense operators on simulated
// devices, `measured` on the CPU. No cost-model prediction enters it. The calls are counted here
// without the retakes of runs the pool ran short of its workers (test/executor/unaided-retake.test.ts),
// which come and go with whatever else the machine runs.

import { describe, expect, it, vi } from 'vitest';
import { CostModel } from '../../src/cost/model.js';
import { Oracle } from '../../src/oracle/oracle.js';
import { explore } from '../../src/scheduler/schedule.js';
import { mixedSystem } from '../executor/executor-fixtures.js';
import { smallGraph, specModel, twoDeviceSystem } from '../scheduler/schedule-fixtures.js';

vi.mock('../../src/executor/host-timing.js', async (actual) => {
  const real = await actual<typeof import('../../src/executor/host-timing.js')>();
  return { ...real, hostTimingFor: (deviceOf: Parameters<typeof real.hostTimingFor>[0]) => ({ ...real.hostTimingFor(deviceOf), unaided: () => undefined }) };
});

const graph = smallGraph();

describe('Oracle.build measures', () => {
  it('simulates each distinct piece once, covering exactly its rows', async () => {
    const system = twoDeviceSystem();
    const ex = await explore('spmm', graph, { system, model: specModel(system) });
    const runs = system.devices.map((d) => vi.spyOn(d, 'run'));
    const oracle = await Oracle.build(ex.problem);
    const want = new Set<string>();
    oracle.choices[0]!.forEach((c) => c.parts.forEach((p) => want.add(`${p.device}/${p.begin}/${p.end}`)));
    expect(oracle.source.size).toBe(want.size);
    const seen = runs.flatMap((r, d) => r.mock.calls.map((c) => `${d}/${c[2] === undefined ? `0/${graph.rows}` : `${c[2][0]}/${c[2][1]}`}`));
    expect(new Set(seen)).toEqual(want);
    expect(seen.length).toBe(want.size); // once each
    expect(oracle.tally()).toEqual({ measured: 0, simulated: want.size, roofline: 0 });
    vi.restoreAllMocks();
  });

  it('labels dense operators on simulated devices as roofline costs', async () => {
    const system = twoDeviceSystem();
    const ex = await explore('gcn', graph, { system, model: specModel(system), splits: false });
    const oracle = await Oracle.build(ex.problem);
    ex.problem.bound.ops.forEach((op, i) => {
      for (const d of [0, 1]) {
        const c = oracle.source.get(i, d, 0, op.units);
        expect(c.basis, `${op.id} on ${d}`).toBe(op.kind === 'spmm' ? 'simulated' : 'roofline');
      }
    });
  });

  it('times a CPU piece after a warm-up, repeats it (more when it is short), and keeps its spread', async () => {
    const system = mixedSystem();
    const ex = await explore('spmm', graph, { system, model: specModel(system), splits: false });
    const cpu = system.devices[0]!;
    const run = vi.spyOn(cpu, 'run');
    const oracle = await Oracle.build(ex.problem, { repeats: 5 });
    const c = oracle.source.get(0, 0, 0, graph.rows);
    expect(run.mock.calls.length).toBe(1 + c.repeats);
    expect(c.basis).toBe('measured');
    // At least five; a short piece more (test/executor/repeats.test.ts).
    expect(c.repeats).toBeGreaterThanOrEqual(5);
    expect(c.lo.seconds).toBeLessThanOrEqual(c.seconds);
    expect(c.hi.seconds).toBeGreaterThanOrEqual(c.seconds);
    vi.restoreAllMocks();
  });

  it('times real pieces in rounds, every piece once per round, so a busy spell falls on all of them alike', async () => {
    const system = mixedSystem();
    const ex = await explore('spmm', graph, { system, model: specModel(system) });
    const cpu = system.devices[0]!;
    const run = vi.spyOn(cpu, 'run');
    await Oracle.build(ex.problem, { repeats: 3 });
    const ranges = run.mock.calls.map((c) => (c[2] === undefined ? 'all' : `${c[2][0]}/${c[2][1]}`));
    const distinct = [...new Set(ranges)];
    expect(distinct.length).toBeGreaterThan(2);
    // Timed one after another, a piece's runs would follow each other (every call but each
    // piece's first would repeat the one before); in rounds, few do (a batch of one piece).
    let repeatsOfPrevious = 0;
    for (let k = 1; k < ranges.length; k++) if (ranges[k] === ranges[k - 1]) repeatsOfPrevious++;
    expect(repeatsOfPrevious).toBeLessThan((ranges.length - distinct.length) / 4);
    vi.restoreAllMocks();
  });

  it('refuses to price a piece it did not run', async () => {
    const system = twoDeviceSystem();
    const ex = await explore('spmm', graph, { system, model: specModel(system), splits: false });
    const oracle = await Oracle.build(ex.problem);
    expect(() => oracle.source.cost(ex.problem.bound.ops[0]!, 0, 0, 7)).toThrow(/^MeasuredCostSource: operator 0 on device 0 \[0, 7\) was not executed$/);
  });

  it('never calls the cost model, to build its space, to measure or to search', async () => {
    const system = twoDeviceSystem();
    const ex = await explore('gcn', smallGraph(), { system, model: specModel(system) });
    const spies = (['predictShape', 'predict', 'predictAll', 'predictBfsLevel'] as const).map((m) => vi.spyOn(CostModel.prototype, m));
    const oracle = await Oracle.build(ex.problem);
    oracle.optimum('min-time');
    oracle.optimum('min-edp');
    await oracle.score(Array.from(ex.front[0]!.genome, (c, i) => ex.problem.choices[i]![c]!));
    for (const s of spies) expect(s).not.toHaveBeenCalled();
    // The spies do see calls when the planner runs, so silence above means something.
    await explore('spmm', smallGraph(2), { system, model: specModel(system) });
    expect(spies[0]).toHaveBeenCalled();
    vi.restoreAllMocks();
  });
});
