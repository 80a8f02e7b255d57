// A two-layer GCN written as ordinary calls: each call returns a handle at once, the session
// infers the DAG from the handles each call reads, and the first `value()` plans the five calls
// as one workload (the same plan as the declared `gcn`) and runs them. Checked against the
// TypeScript reference.
// Run: npx tsx examples/session.ts

import {
  bindWorkload,
  detectSystem,
  kroneckerGraph,
  loadCostModel,
  referenceValues,
  session,
  workload,
  type CsrMatrix,
  type DenseMatrix,
} from '../src/index.js';

const graph = kroneckerGraph({ scale: 10, seed: 3 });
// The declared gcn's own inputs (normalised adjacency, generated features and weights), so the
// result can be set beside its reference.
const bound = bindWorkload(workload('gcn'), graph);
const input = (name: string): unknown => bound.values.find((v) => v.name === name)!.data;
const [A, X, W1, W2] = [input('A') as CsrMatrix, input('X') as DenseMatrix, input('W1') as DenseMatrix, input('W2') as DenseMatrix];

const system = await detectSystem();
const model = await loadCostModel(system);
const s = session({
  system,
  model,
  policy: 'min-time',
  onBatch: (b) => console.log(`batch ${b.index} (${b.reason}): ${b.plan?.chosen.label ?? String(b.error)}`),
});

const h1 = s.relu(s.spmm(A, s.gemm(X, W1))); // handles, returned at once
const out = s.spmm(A, s.gemm(h1, W2));
console.log(`out is ${out}, ${out.state}`);
const y = await out.value(); // sync point: plan and run the five calls

const ref = referenceValues(bound)[bound.outputs[0]!] as DenseMatrix;
let worst = 0;
for (let i = 0; i < ref.data.length; i++) worst = Math.max(worst, Math.abs(y.data[i]! - ref.data[i]!));
console.log(`output ${y.rows} x ${y.cols}; largest difference from the reference ${worst.toExponential(1)}`);
if (!(worst < 1e-3)) throw new Error('session example: the result differs from the reference');
await s.close();
await system.dispose();
