// schedule() and explore() check their arguments before planning: misspelled option names,
// unknown objectives, searches, devices and workloads are InvalidArgumentErrors that suggest the
// closest name; a graph without vertices is refused, one without edges is planned.

import { describe, expect, it } from 'vitest';
import { CsrMatrix } from '../../src/data/csr.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { explore, schedule } from '../../src/scheduler/schedule.js';
import { smallGraph, specModel, twoDeviceSystem } from './schedule-fixtures.js';

const system = twoDeviceSystem();
const model = specModel(system);
const graph = smallGraph();
const base = { system, model };

async function refused(p: Promise<unknown>, message: RegExp): Promise<void> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(InvalidArgumentError);
  expect((e as InvalidArgumentError).code).toBe('ERR_INVALID_ARGUMENT');
  expect((e as Error).message).toMatch(message);
}

describe('option checks', () => {
  it('refuses a misspelled option with the closest name', async () => {
    await refused(schedule('spmm', graph, { ...base, polcy: 'min-energy' } as never), /^schedule: unknown option "polcy" \(did you mean "policy"\?\)$/);
    await refused(
      explore('spmm', graph, { ...base, objectivs: ['time', 'energy'] } as never),
      /^explore: unknown option "objectivs" \(did you mean "objectives"\?\)$/,
    );
  });

  it('refuses policy in explore, which does not choose', async () => {
    await refused(explore('spmm', graph, { ...base, policy: 'min-time' } as never), /^explore: unknown option "policy"/);
  });

  it('refuses an unknown objective with the closest name', async () => {
    await refused(
      schedule('spmm', graph, { ...base, objectives: ['time', 'enrgy'] } as never),
      /^schedule: unknown objective "enrgy" \(did you mean "energy"\?\)$/,
    );
  });

  it('needs two or three distinct objectives', async () => {
    for (const objectives of [['time'], ['time', 'time'], ['time', 'energy', 'memory', 'latency']]) {
      await refused(
        explore('spmm', graph, { ...base, objectives } as never),
        /^explore: objectives must be 2 or 3 distinct names of time, energy, memory, latency/,
      );
    }
  });

  it('refuses an unknown search with the closest name', async () => {
    await refused(explore('spmm', graph, { ...base, search: 'nsga' }), /^explore: unknown search "nsga" \(did you mean "nsga2"\?\)$/);
  });

  it('refuses an unknown policy and a policy without its constraint', async () => {
    await refused(schedule('spmm', graph, { ...base, policy: 'min-enrgy' as never }), /did you mean "min-energy"/);
    await refused(schedule('spmm', graph, { ...base, policy: 'fastest-within-budget' }), /needs the energyBudget option/);
  });

  it('refuses an unknown device to exclude with the closest name', async () => {
    // Named as explore's option, not as the System.device lookup inside it.
    await refused(explore('spmm', graph, { ...base, exclude: ['gpx'] }), /^explore: exclude names no device of system t: "gpx" \(did you mean "gpu"\?\)$/);
  });

  it('refuses bad numbers and a model of another system', async () => {
    await refused(explore('spmm', graph, { ...base, deadline: -1 }), /^explore: deadline/);
    await refused(explore('spmm', graph, { ...base, maxSplit: 4 }), /^explore: maxSplit/);
    await refused(explore('spmm', graph, { ...base, splitRatios: [0.5, 1] }), /^explore: splitRatios must be numbers strictly between 0 and 1/);
    await refused(explore('spmm', graph, { system: twoDeviceSystem(), model }), /^explore: the model was built for system t, not t$/);
  });

  it('refuses an unknown shipped workload with the closest name', async () => {
    await refused(schedule('spm', graph, base), /^workload: no shipped workload "spm" \(did you mean "spmm"\?\)$/);
  });
});

describe('inputs', () => {
  it('refuses an empty graph', async () => {
    const empty = new CsrMatrix({ rows: 0, cols: 0, rowPtr: Int32Array.of(0), colIdx: new Int32Array(0) });
    for (const name of ['spmm', 'bfs', 'gcn']) await refused(schedule(name, empty, base), /^schedule: input \w+ is empty \(0 x 0\)/);
  });

  it('plans a graph with vertices and no edges', async () => {
    const edgeless = new CsrMatrix({ rows: 5, cols: 5, rowPtr: new Int32Array(6), colIdx: new Int32Array(0) });
    const plan = await schedule('spmm', edgeless, base);
    expect(plan.front.length).toBeGreaterThan(0);
    expect(Number.isFinite(plan.chosen.time) && plan.chosen.time > 0).toBe(true);
    // Nothing to balance by nonzeros: no split has an empty part.
    for (const c of plan.problem.choices[0]!) for (const p of c.parts) expect(p.end).toBeGreaterThan(p.begin);
  });
});
