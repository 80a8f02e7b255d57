// Where an operator is too large to profile whole chunk by chunk, its chunks are a sample; a
// device's time need not grow with rows as the sample's does. The simulated H100 takes about the
// same time for 1,000 rows of a banded SpMV as for all 50,000 (it fills with rows before it
// slows): priced from the sample's rate, the whole was 15x and a 70% part 4x what they took, and
// PageRank was split three ways where the GPU alone was 60% faster (a held-out input of the
// decision suite). The whole operator now runs once beside the sample and the profile is fitted
// to it, and a part is never priced from a sample: it runs exactly.

import { describe, expect, it } from 'vitest';
import { buildSystem } from '../../src/devices/system.js';
import { runPiece } from '../../src/executor/piece.js';
import { generate } from '../../src/generators/index.js';
import type { ProbedCostSource } from '../../src/scheduler/probed-costs.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { referenceValues } from '../../src/workloads/reference.js';
import { specModel } from './schedule-fixtures.js';

describe('a sampled row profile', () => {
  const system = buildSystem({
    name: 'gpu',
    devices: [{ name: 'gpu', backend: 'gpu-sim', profile: 'h100-sxm' }],
    links: [{ between: ['host', 'gpu'], profile: 'pcie-gen5-x16' }],
  });
  const matrix = generate({ kind: 'banded', n: 12000, halfBandwidth: 12, seed: 8 });

  it('prices the whole operator at what it took, and a part near it', async () => {
    // A small probe budget, so that this input is sampled as a large one would be.
    const plan = await schedule('pagerank', matrix, { system, model: specModel(system), probe: { maxEntries: 20000 } });
    const costs = plan.problem.costs as ProbedCostSource;
    const { bound } = plan.problem;
    const op = bound.ops.find((o) => o.kind === 'spmv')!;
    const values = referenceValues(bound);
    const operands = op.operands.map((v) => values[v]!);
    for (const [b, e, tolerance] of [
      [0, op.units, 1e-9],
      [0, Math.round(op.units * 0.7), 0.25],
      [Math.round(op.units * 0.4), op.units, 0.25],
    ] as const) {
      const priced = costs.cost(op, 0, b, e).seconds;
      const ran = (await runPiece(bound, op, system.devices[0]!, operands, b, e)).seconds;
      expect(priced / ran, `rows [${b}, ${e})`).toBeGreaterThan(1 - tolerance);
      expect(priced / ran, `rows [${b}, ${e})`).toBeLessThan(1 + tolerance);
    }
  });
});
