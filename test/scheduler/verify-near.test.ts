// Before a pick is final, the alternatives predicted within reach of it are run exactly and the
// policy picks again: a part priced by interpolation (the last two sources of a multi-source
// BFS, read off a profile of other sources) must not decide between near-equal mappings. On an
// all-simulated system the pick is then the best of its near alternatives by what they take.

import { describe, expect, it } from 'vitest';
import { buildSystem } from '../../src/devices/system.js';
import { generate } from '../../src/generators/index.js';
import type { ProbedCostSource } from '../../src/scheduler/probed-costs.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { exactPrices } from './exact-prices.js';
import { specModel } from './schedule-fixtures.js';
import { loadMatrixMarket } from '../../src/io/index.js';
import { CsrMatrix } from '../../src/data/csr.js';
import { join } from 'node:path';
import { haveDatasets, sharedDatasets } from '../support/datasets.js';

describe('verifying a pick against its near alternatives', () => {
  const system = buildSystem({
    name: 'gpu-cgra',
    devices: [
      { name: 'gpu', backend: 'gpu-sim', profile: 'h100-sxm' },
      { name: 'cgra', backend: 'cgra-sim' },
      { name: 'cgra8', backend: 'cgra-sim', profile: 'hycube-8x8' },
    ],
    links: [{ between: ['host', 'gpu'], profile: 'pcie-gen5-x16' }],
  });
  const mesh = generate({ kind: 'banded', n: 3000, halfBandwidth: 20, fill: 0.6, seed: 16 });

  it('runs them exactly, and no alternative within reach beats the pick by what it takes', () => check(mesh));

  // The case this guards: a FEM matrix whose last two sources a CGRA searches in 523 us where the
  // profile said 795 us; the GPU alone was kept, 2.2% slower than giving the CGRA those two.
  it.skipIf(!haveDatasets)('picks the near split the profile mispriced (bcsstk16)', async () => {
    const m = (await loadMatrixMarket(join(sharedDatasets, 'bcsstk16.mtx'), { format: 'coordinate' })) as CsrMatrix;
    await check(new CsrMatrix({ rows: m.rows, cols: m.cols, rowPtr: m.rowPtr, colIdx: m.colIdx }));
  });

  // Its four nearest alternatives were slivers of the pick (the GPU with 99.5-99.9%, the CGRAs the
  // rest); the GPU with 96% and the 8x8 CGRA 4%, priced 2.6% behind, ran 2.2% ahead and was never run.
  it.skipIf(!haveDatasets)(
    'runs alternatives apart from the pick, not only its slivers (SpMM of email-Enron)',
    async () => {
      const m = (await loadMatrixMarket(join(sharedDatasets, 'email-Enron.mtx'), { format: 'coordinate' })) as CsrMatrix;
      await check(m, 'spmm', { k: 32 });
    },
    60_000,
  );

  async function check(graph: CsrMatrix, workload = 'msbfs', params: Record<string, number> = { sources: 32 }): Promise<void> {
    const plan = await schedule(workload, graph, { system, model: specModel(system), params });
    const { choices } = plan.problem;
    const costs = plan.problem.costs as ProbedCostSource;
    const out = new Float64Array(2);
    const predicted = plan.problem.evaluator;
    const near = choices[0]!.flatMap((_, c) => (predicted.evaluate(Int32Array.of(c), out) && out[0]! <= 1.15 * plan.chosen.time ? [c] : []));
    // The pick and every choice within reach priced by what it takes (simulators: exact and deterministic).
    const { value } = await exactPrices(plan, 'min-time', system.devices, near);
    const picked = value(plan.chosen.genome[0]!);
    // The pick's parts were run exactly...
    for (const p of plan.chosen.genome.length ? choices[0]![plan.chosen.genome[0]!]!.parts : []) expect(costs.hasPart(0, p.device, p.begin, p.end)).toBe(true);
    // ...and no alternative the planner predicted within reach beats it by more than 1% (the
    // suite's "optimal") by what it takes: probes of simulators have no spread, so the pick's
    // margin here is its floor, 0.5%.
    expect(near.length).toBeGreaterThan(1);
    for (const c of near) expect(value(c), choices[0]![c]!.label).toBeGreaterThan(picked / 1.01);
  }
});
