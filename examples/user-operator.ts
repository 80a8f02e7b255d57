// A user-defined operator: each row of X scaled by its vertex's weighted degree, written as plain
// TypeScript over a row range, registered with defineOperator, then used from a declared workload
// and from a session. The planner probes its CPU code on this input; the outputs are checked
// against its reference.
// Run: npx tsx examples/user-operator.ts

import {
  defineOperator,
  DenseMatrix,
  detectSystem,
  kroneckerGraph,
  loadCostModel,
  runPlan,
  schedule,
  session,
  WorkloadBuilder,
  type CsrMatrix,
} from '../src/index.js';

/** Rows [begin, end) of gain * diag(rowsum(a)) x. */
function rowScale(a: CsrMatrix, x: DenseMatrix, begin: number, end: number, gain: number): DenseMatrix {
  const out = new Float32Array((end - begin) * x.cols);
  for (let i = begin; i < end; i++) {
    let sum = 0;
    for (let p = Number(a.rowPtr[i]!); p < Number(a.rowPtr[i + 1]!); p++) sum += a.values ? a.values[p]! : 1;
    for (let j = 0; j < x.cols; j++) out[(i - begin) * x.cols + j] = gain * sum * x.data[i * x.cols + j]!;
  }
  return new DenseMatrix(end - begin, x.cols, out);
}

defineOperator({
  name: 'row-scale',
  inputs: ['sparse', 'dense'],
  params: ['gain'],
  output: ([a, x]) => {
    if (a!.rows !== x!.rows) throw new Error(`x needs ${a!.rows} rows, got ${x!.rows}`);
    return { rows: a!.rows, cols: x!.cols };
  },
  reference: ([a, x], { gain = 1 }) => rowScale(a as CsrMatrix, x as DenseMatrix, 0, a!.rows, gain),
  devices: {
    cpu: ([a, x], [b, e], { gain = 1 }) => rowScale(a as CsrMatrix, x as DenseMatrix, b, e, gain),
    'gpu-sim': ([a, x], [b, e], { gain = 1 }) => rowScale(a as CsrMatrix, x as DenseMatrix, b, e, gain),
  },
});

const graph = kroneckerGraph({ scale: 10, seed: 3 });
const system = await detectSystem();
const model = await loadCostModel(system);

// Declared: the operator in a workload, planned (probed on the CPU) and run.
const w = new WorkloadBuilder('scaled')
  .sparse('A', { square: true })
  .dense('X', { rows: 'A.rows', cols: 16, generate: 'random' })
  .op('s', 'row-scale', ['A', 'X'], { gain: 2 })
  .op('y', 'relu', ['s'])
  .output('y')
  .build();
const plan = await schedule(w, graph, { system, model });
console.log(`planned: ${plan.chosen.label}`);
const result = await runPlan(plan, { keepValues: true });
const x = plan.problem.bound.values.find((v) => v.name === 'X')!.data as DenseMatrix;
const want = rowScale(graph, x, 0, graph.rows, 2);
const got = result.values!['s'] as DenseMatrix;
if (!got.data.every((v, i) => v === want.data[i])) throw new Error('user-operator example: the workload differs from the reference');

// Imperative: the same operator called from a session.
const s = session({ system, model });
const y = await s.call('row-scale', [graph, x], { gain: 2 }).value();
if (!y.data.every((v, i) => v === want.data[i])) throw new Error('user-operator example: the session differs from the reference');
console.log(`row-scale: ${y.rows} x ${y.cols}, equal to its reference in a workload and in a session`);
await s.close();
await system.dispose();
