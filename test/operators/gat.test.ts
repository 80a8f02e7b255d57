// The shipped GAT layer: planned and run, declared and by session calls, equal to a plain
// computation written here from its definition (scores on the edges, per-vertex softmax,
// weighted aggregation, relu), not through dype's kernels.

import { expect, it } from 'vitest';
import type { CsrMatrix } from '../../src/data/csr.js';
import type { DenseMatrix } from '../../src/data/dense.js';
import { runPlan } from '../../src/executor/run.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { bindWorkload } from '../../src/workloads/bind.js';
import { workload } from '../../src/workloads/library.js';
import type { BatchRecord } from '../../src/session/session.js';
import { machine, quietSession, smallGraph } from '../session/session-fixtures.js';

/** relu(softmax_rows(A ⊙ H H^T) H) with H = X W, in double precision. */
function plainGat(a: CsrMatrix, x: DenseMatrix, w: DenseMatrix): Float64Array {
  const n = a.rows;
  const f = w.cols;
  const h = new Float64Array(n * f);
  for (let i = 0; i < n; i++) for (let k = 0; k < x.cols; k++) for (let j = 0; j < f; j++) h[i * f + j]! += x.data[i * x.cols + k]! * w.data[k * f + j]!;
  const out = new Float64Array(n * f);
  for (let i = 0; i < n; i++) {
    const lo = Number(a.rowPtr[i]!);
    const hi = Number(a.rowPtr[i + 1]!);
    const score: number[] = [];
    for (let p = lo; p < hi; p++) {
      let dot = 0;
      for (let t = 0; t < f; t++) dot += h[i * f + t]! * h[a.colIdx[p]! * f + t]!;
      score.push(dot * (a.values ? a.values[p]! : 1));
    }
    const max = Math.max(...score);
    const e = score.map((s) => Math.exp(s - max));
    const sum = e.reduce((s, v) => s + v, 0);
    for (let p = lo; p < hi; p++) for (let t = 0; t < f; t++) out[i * f + t]! += (e[p - lo]! / sum) * h[a.colIdx[p]! * f + t]!;
  }
  return out.map((v) => Math.max(v, 0));
}

function expectClose(got: DenseMatrix, want: Float64Array): void {
  expect(got.data.length).toBe(want.length);
  let worst = 0;
  for (let i = 0; i < want.length; i++) worst = Math.max(worst, Math.abs(got.data[i]! - want[i]!) / Math.max(1, Math.abs(want[i]!)));
  expect(worst).toBeLessThan(1e-4);
}

it('the gat workload, planned and run, equals a plain GAT layer', async () => {
  const graph = smallGraph(5);
  const { system, model } = machine();
  const plan = await schedule('gat', graph, { system, model, probe: false });
  expect(plan.problem.bound.ops.map((o) => o.kind)).toEqual(['gemm', 'sddmm', 'edge-softmax', 'spmm', 'relu']);
  const result = await runPlan(plan, { replan: false, learn: false });
  const by = (name: string): unknown => plan.problem.bound.values.find((v) => v.name === name)!.data;
  const want = plainGat(by('A') as CsrMatrix, by('X') as DenseMatrix, by('W') as DenseMatrix);
  expectClose(result.outputs['out'] as DenseMatrix, want);
  await system.dispose();
});

it('a GAT layer by session calls equals it too, planned as the declared one', async () => {
  const graph = smallGraph(5);
  const bound = bindWorkload(workload('gat'), graph);
  const by = (name: string): unknown => bound.values.find((v) => v.name === name)!.data;
  const [A, X, W] = [by('A') as CsrMatrix, by('X') as DenseMatrix, by('W') as DenseMatrix];
  const { system, model } = machine();
  const declared = await schedule('gat', graph, { system, model, probe: false });
  const batches: BatchRecord[] = [];
  const s = quietSession(system, model, { onBatch: (b) => batches.push(b) });
  const h = s.gemm(X, W);
  const attention = s.call<CsrMatrix>('edge-softmax', [s.sddmm(A, h, h)]);
  expect([attention.kind, attention.rows, attention.cols]).toEqual(['sparse', A.rows, A.cols]);
  const out = s.relu(s.spmm(attention, h));
  expectClose(await out.value(), plainGat(A, X, W));
  await s.close();
  const plan = batches[0]!.plan!;
  const chosen = (p: typeof plan): string[] => p.problem.bound.ops.map((op, i) => `${op.kind}:${p.problem.choices[i]![p.chosen.genome[i]!]!.label}`);
  expect(chosen(plan)).toEqual(chosen(declared));
  await system.dispose();
});
