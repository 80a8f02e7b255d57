// A row profile must price the whole operator at what it took. On a device whose time barely
// grows with rows (the simulated H100's SpMV on a 2k-row FEM matrix: launch- and latency-bound,
// the same 15.8 us for 60% of the rows as for all of them) the chunks' sum minus the whole put the
// fixed cost at nearly all of a chunk; clamped below the smallest chunk, it left every chunk a
// share of work, the whole was priced 1.3x what it took, and PageRank was split three ways where
// the GPU alone was 7% faster. The rates are now scaled so the profile fits the whole, and what
// ran exactly is priced as it ran.

import { describe, expect, it } from 'vitest';
import { buildSystem } from '../../src/devices/system.js';
import { runPiece } from '../../src/executor/piece.js';
import { generate } from '../../src/generators/index.js';
import type { ProbedCostSource } from '../../src/scheduler/probed-costs.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { referenceValues } from '../../src/workloads/reference.js';
import { specModel } from './schedule-fixtures.js';

describe('a row profile and the whole operator', () => {
  const system = buildSystem({
    name: 'gpu',
    devices: [{ name: 'gpu', backend: 'gpu-sim', profile: 'h100-sxm' }],
    links: [{ between: ['host', 'gpu'], profile: 'pcie-gen5-x16' }],
  });
  const matrix = generate({ kind: 'banded', n: 2000, halfBandwidth: 30, fill: 0.5, seed: 2 });

  it('prices the whole operator, and every part, near what the device takes', async () => {
    const plan = await schedule('pagerank', matrix, { system, model: specModel(system) });
    const costs = plan.problem.costs as ProbedCostSource;
    const { bound } = plan.problem;
    const op = bound.ops.find((o) => o.kind === 'spmv')!;
    const values = referenceValues(bound);
    const operands = op.operands.map((v) => values[v]!);
    for (const [b, e, tolerance] of [
      [0, op.units, 1e-9],
      [0, Math.round(op.units * 0.6), 0.2],
      [Math.round(op.units * 0.3), op.units, 0.2],
    ] as const) {
      const priced = costs.cost(op, 0, b, e).seconds;
      const ran = (await runPiece(bound, op, system.devices[0]!, operands, b, e)).seconds;
      expect(priced / ran, `rows [${b}, ${e})`).toBeGreaterThan(1 - tolerance);
      expect(priced / ran, `rows [${b}, ${e})`).toBeLessThan(1 + tolerance);
    }
  });
});
