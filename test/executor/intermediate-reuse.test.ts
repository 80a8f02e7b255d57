// A run gives its dead intermediates back to the kernels' output pool, and the next run takes
// them: repeated runs of a plan stop allocating. What the caller holds is never reused: outputs
// of earlier runs, values kept with `keepValues`, and arrays a user operator returned (its code
// may keep them, even when dype's own kernels made them) stay as they were.

import { afterAll, afterEach, expect, it } from 'vitest';
import type { CsrMatrix } from '../../src/data/csr.js';
import { DenseMatrix } from '../../src/data/dense.js';
import { buildSystem } from '../../src/devices/system.js';
import { runPlan } from '../../src/executor/run.js';
import { spmmReference } from '../../src/kernels/reference.js';
import { spmm } from '../../src/kernels/spmm.js';
import { clearOutputPool, pooledOutputBytes } from '../../src/kernels/output-pool.js';
import { defineOperator, undefineOperator } from '../../src/operators/define.js';
import { WorkloadBuilder } from '../../src/workloads/builder.js';
import { referenceValues } from '../../src/workloads/reference.js';
import { expectSameValue, Planner, smallGraph } from './executor-fixtures.js';

const cpuOnly = () => buildSystem({ name: 'cpu-only', devices: [{ name: 'cpu', backend: 'cpu' }] });
const planner = new Planner(cpuOnly(), smallGraph());
const copy = (m: DenseMatrix) => new DenseMatrix(m.rows, m.cols, m.data.slice(), { allowNonFinite: true });

afterEach(() => clearOutputPool());
afterAll(() => {
  undefineOperator('cached-aggregate');
  undefineOperator('pass-through');
});

it('reuses the intermediates of one run in the next, and never an output', async () => {
  const plan = await planner.plan('gcn');
  const { bound } = plan.problem;
  const ref = referenceValues(bound);
  const first = await runPlan(plan, { replan: false });
  const held = pooledOutputBytes();
  // GCN's four intermediates (64 or 16 columns); some were taken again inside the run itself.
  expect(held).toBeGreaterThan(0);
  const firstOut = first.outputs['agg2'] as DenseMatrix;
  const snapshot = copy(firstOut);
  const buffers = new Set([firstOut.data]);
  for (let i = 0; i < 3; i++) {
    const again = await runPlan(plan, { replan: false });
    buffers.add((again.outputs['agg2'] as DenseMatrix).data);
    expectSameValue(again.outputs['agg2'], ref[bound.outputs[0]!]!, `run ${i + 2}`);
    // Steady state: each run took what the last gave back, allocating nothing new to hold.
    expect(pooledOutputBytes()).toBe(held);
  }
  expect(buffers.size).toBe(4);
  expectSameValue(firstOut, snapshot, 'the first run output, after three more runs');
});

it('never reuses an output that another operator also reads', async () => {
  const w = new WorkloadBuilder('two-outputs')
    .sparse('A', { square: true })
    .dense('X', { rows: 'A.rows', cols: 16, generate: 'random' })
    .dense('W', { rows: 16, cols: 16, generate: 'random' })
    .op('xw', 'gemm', ['X', 'W'])
    .op('agg', 'spmm', ['A', 'xw'])
    .op('h', 'relu', ['agg'])
    .output('agg')
    .output('h')
    .build();
  const plan = await planner.plan(w);
  const buffers = new Set<unknown>();
  for (let i = 0; i < 3; i++) {
    const r = await runPlan(plan, { replan: false });
    buffers.add((r.outputs['agg'] as DenseMatrix).data).add((r.outputs['h'] as DenseMatrix).data);
  }
  expect(buffers.size).toBe(6);
});

it('never reuses values kept with keepValues', async () => {
  const plan = await planner.plan('sage');
  const kept = await runPlan(plan, { replan: false, keepValues: true });
  expect(pooledOutputBytes()).toBe(0);
  const snapshots = Object.fromEntries(Object.entries(kept.values!).map(([k, v]) => [k, copy(v as DenseMatrix)]));
  for (let i = 0; i < 2; i++) await runPlan(plan, { replan: false });
  for (const [k, v] of Object.entries(kept.values!)) expectSameValue(v, snapshots[k]!, `kept ${k}`);
});

it("never reuses what a user operator returned, even an array dype's kernels made", async () => {
  const returned: DenseMatrix[] = [];
  defineOperator({
    name: 'cached-aggregate',
    inputs: ['sparse', 'dense'],
    output: ([a, x]) => ({ rows: a!.rows, cols: x!.cols }),
    reference: ([a, x]) => {
      const m = x as DenseMatrix;
      return new DenseMatrix(a!.rows, m.cols, Float32Array.from(spmmReference(a as CsrMatrix, m.data, m.cols)));
    },
    devices: {
      cpu: async ([a, x], [b, e]) => {
        const y = await spmm(a as CsrMatrix, x as DenseMatrix, { rows: [b, e] });
        returned.push(y); // user code keeping its result
        return y;
      },
    },
    split: 'none',
  });
  const w = new WorkloadBuilder('cached')
    .sparse('A', { square: true })
    .dense('X', { rows: 'A.rows', cols: 8, generate: 'random' })
    .op('agg', 'cached-aggregate', ['A', 'X'])
    .op('h', 'relu', ['agg'])
    .output('h')
    .build();
  const plan = await planner.plan(w);
  await runPlan(plan, { replan: false });
  const snapshot = copy(returned[0]!);
  for (let i = 0; i < 2; i++) await runPlan(plan, { replan: false });
  expect(new Set(returned.map((m) => m.data)).size).toBe(3);
  expectSameValue(returned[0]!, snapshot, 'the array the user operator kept');
});

it('never reuses what a user operator read, which it may return as its own result', async () => {
  defineOperator({
    name: 'pass-through',
    inputs: ['dense'],
    output: ([x]) => ({ rows: x!.rows, cols: x!.cols }),
    reference: ([x]) => x as DenseMatrix,
    devices: { cpu: ([x]) => x as DenseMatrix },
    split: 'none',
  });
  const w = new WorkloadBuilder('passed')
    .sparse('A', { square: true })
    .dense('X', { rows: 'A.rows', cols: 8, generate: 'random' })
    .dense('W', { rows: 8, cols: 8, generate: 'random' })
    .op('xw', 'gemm', ['X', 'W'])
    .op('y', 'pass-through', ['xw'])
    .output('y')
    .build();
  const plan = await planner.plan(w);
  const first = (await runPlan(plan, { replan: false })).outputs['y'] as DenseMatrix;
  const snapshot = copy(first);
  const again = (await runPlan(plan, { replan: false })).outputs['y'] as DenseMatrix;
  expect(again.data).not.toBe(first.data);
  expectSameValue(first, snapshot, 'the first run output, returned by the user operator as read');
});
