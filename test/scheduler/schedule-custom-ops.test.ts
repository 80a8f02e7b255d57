// A user-written workload with the operators no shipped one uses (SDDMM feeding an SpMM, a
// reduction) plans, binds, computes its reference values, and the oracle measures it.

import { expect, it } from 'vitest';
import { CsrMatrix } from '../../src/data/csr.js';
import type { DenseMatrix } from '../../src/data/dense.js';
import { CostModel } from '../../src/cost/model.js';
import { buildSystem } from '../../src/devices/system.js';
import { kroneckerGraph } from '../../src/generators/index.js';
import { Oracle } from '../../src/oracle/oracle.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { WorkloadBuilder } from '../../src/workloads/builder.js';
import { referenceValues } from '../../src/workloads/reference.js';

it('plans and measures sddmm -> spmm -> reduce', async () => {
  const w = new WorkloadBuilder('attention')
    .param('h', 8)
    .sparse('graph', { square: true })
    .dense('H', { rows: 'graph.rows', cols: '$h' })
    .op('att', 'sddmm', ['graph', 'H', 'H'])
    .op('agg', 'spmm', ['att', 'H'])
    .op('n', 'reduce', ['agg'], { op: 'norm2' })
    .output('n')
    .build();
  const system = buildSystem({
    name: 't',
    devices: [
      { name: 'gpu', backend: 'gpu-sim' },
      { name: 'cgra', backend: 'cgra-sim' },
    ],
    links: [{ between: ['host', 'gpu'], profile: 'pcie-gen5-x16' }],
  });
  const g = kroneckerGraph({ scale: 8, seed: 2 });
  const plan = await schedule(w, g, { system, model: new CostModel(system) });
  expect(plan.front.length).toBeGreaterThan(0);
  expect(plan.problem.bound.ops.map((o) => o.kind)).toEqual(['sddmm', 'spmm', 'reduce']);
  const values = referenceValues(plan.problem.bound);
  const att = values[plan.problem.bound.ops[0]!.output] as CsrMatrix;
  expect(att).toBeInstanceOf(CsrMatrix);
  expect(att.nnz).toBe(g.nnz);
  const n = values[plan.problem.bound.ops[2]!.output] as DenseMatrix;
  expect([n.rows, n.cols]).toEqual([1, 8]);
  // The column norms of agg, recomputed here.
  const agg = values[plan.problem.bound.ops[1]!.output] as DenseMatrix;
  for (let c = 0; c < 8; c++) {
    let s = 0;
    for (let r = 0; r < agg.rows; r++) s += agg.data[r * 8 + c]! ** 2;
    expect(n.data[c]).toBeCloseTo(Math.sqrt(s), 3);
  }
  const oracle = await Oracle.build(plan.problem);
  const best = oracle.optimum('min-time');
  expect(best.exact).toBe(true);
  const pick = await oracle.score(Array.from(plan.chosen.genome, (c, i) => plan.problem.choices[i]![c]!));
  expect(best.value).toBeLessThanOrEqual(pick.median.makespan * (1 + 1e-12));
});
