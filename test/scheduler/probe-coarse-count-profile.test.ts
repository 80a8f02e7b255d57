// A multi-source BFS too large for the full count profile still gets a coarse one on a
// simulator (one source, a quarter, a half, all), so a part is priced from runs of the same
// device rather than from the model's shape: a 38-of-64-source part on luxembourg_osm had been
// priced at 27% of the whole where it took 58%, and a min-EDP pick split two CGRAs 194% worse
// than the GPU alone. A small probe budget puts a small graph in that regime here.

import { describe, expect, it } from 'vitest';
import { buildSystem } from '../../src/devices/system.js';
import { runPiece } from '../../src/executor/piece.js';
import { generate } from '../../src/generators/index.js';
import { profileCounts } from '../../src/scheduler/probe-sets.js';
import type { ProbedCostSource } from '../../src/scheduler/probed-costs.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { bindWorkload } from '../../src/workloads/bind.js';
import { workload } from '../../src/workloads/library.js';
import { referenceValues } from '../../src/workloads/reference.js';
import { specModel } from './schedule-fixtures.js';

const MAX_ENTRIES = 4000;

describe('a coarse count profile on a simulator', () => {
  const system = buildSystem({ name: 'cgra', devices: [{ name: 'cgra', backend: 'cgra-sim', profile: 'hycube-4x4' }], links: [] });
  const graph = generate({ kind: 'grid', rows: 24, cols: 40, seed: 5 });

  it('is what a simulator gets where the full profile is over budget, and a real device does not', () => {
    const bound = bindWorkload(workload('msbfs'), graph, { params: { sources: 64 } });
    const op = bound.ops[0]!;
    expect(profileCounts(op, bound, MAX_ENTRIES)).toBeUndefined();
    expect(profileCounts(op, bound, MAX_ENTRIES, true)).toEqual([1, 16, 32, 64]);
  });

  it('prices a part holding most of the sources near what it takes', async () => {
    const plan = await schedule('msbfs', graph, { system, model: specModel(system), params: { sources: 64 }, probe: { maxEntries: MAX_ENTRIES } });
    const costs = plan.problem.costs as ProbedCostSource;
    const { bound } = plan.problem;
    const op = bound.ops[0]!;
    const operands = op.operands.map((v) => referenceValues(bound)[v]!);
    for (const [b, e] of [
      [26, 64],
      [0, 38],
    ] as const) {
      const predicted = costs.cost(op, 0, b, e).seconds;
      const ran = (await runPiece(bound, op, system.devices[0]!, operands, b, e)).seconds;
      expect(predicted / ran, `[${b}, ${e})`).toBeGreaterThan(0.8);
      expect(predicted / ran, `[${b}, ${e})`).toBeLessThan(1.25);
    }
  });
});
