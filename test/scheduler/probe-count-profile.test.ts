// Multi-source BFS splits its sources, and a part's cost is far from proportional to how many it
// holds: the simulated CGRA took 845 us for 3 of 32 sources and 2.6 ms for all 32 on a 4k-vertex
// social graph. Scaling the model's shape by one whole-operator probe priced a 6-source part at
// 1.5x what it took (and a 14-source part above a 19-source one), and the planner kept the CPU
// alone where a split was 14% faster. The probe now runs parts of several sizes (a count profile)
// and prices a part at its size between them.

import { describe, expect, it } from 'vitest';
import { buildSystem } from '../../src/devices/system.js';
import { runPiece } from '../../src/executor/piece.js';
import { generate } from '../../src/generators/index.js';
import type { ProbedCostSource } from '../../src/scheduler/probed-costs.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { referenceValues } from '../../src/workloads/reference.js';
import { specModel } from './schedule-fixtures.js';

describe('probes of an operator split by sources', () => {
  const system = buildSystem({ name: 'cgra', devices: [{ name: 'cgra', backend: 'cgra-sim', profile: 'hycube-4x4' }], links: [] });
  const graph = generate({ kind: 'kronecker', scale: 10, edgeFactor: 8, seed: 5 });

  it('prices parts of every size near what the device takes', async () => {
    const plan = await schedule('msbfs', graph, { system, model: specModel(system), params: { sources: 32 } });
    const costs = plan.problem.costs as ProbedCostSource;
    const { bound } = plan.problem;
    const op = bound.ops[0]!;
    expect(op.split).toBe('sources');
    const values = referenceValues(bound);
    const operands = op.operands.map((v) => values[v]!);
    const worst = { ratio: 1, part: '' };
    // Suffix parts (the ones a second device takes), none of them probed exactly.
    for (const b of [26, 20, 13, 7]) {
      const predicted = costs.cost(op, 0, b, op.units);
      const ran = await runPiece(bound, op, system.devices[0]!, operands, b, op.units);
      const r = predicted.seconds / ran.seconds;
      if (Math.abs(Math.log(r)) > Math.abs(Math.log(worst.ratio))) Object.assign(worst, { ratio: r, part: `[${b}, ${op.units})` });
    }
    // Parts are priced from the end of the sources they hold (a split's last part from parts
    // that end at the last source): within 15%, where the first sources' profile alone was 1.3x
    // off and the model's shape 1.5x.
    expect(worst.ratio, `worst part ${worst.part}`).toBeGreaterThan(0.85);
    expect(worst.ratio, `worst part ${worst.part}`).toBeLessThan(1.15);
  });
});
