// Intermediates that stay on the card (skipped without a CUDA device): a GCN forward with every
// operator on the GPU copies only its output home, and each input in once; with one operator on
// the CPU in the middle, the value it reads is fetched home first and the outputs still equal the
// reference; a deferred output read by the CPU's own code is never seen stale.

import { describe, expect, it } from 'vitest';
import { cudaProbe } from '../../../src/devices/backends/gpu.js';
import { runPlan } from '../../../src/executor/run.js';
import { generate } from '../../../src/generators/index.js';
import { allOn, expectReferenceOutputs, Planner, wholeOn, withGenome } from '../../executor/executor-fixtures.js';
import { cpuAndCard } from './gpu-fixtures.js';

const probe = cudaProbe();

/** Bytes of a value's arrays that a kernel reads whole: dense data, a depth array, a sparse matrix's values. */
function bytesOf(v: unknown): number {
  if (ArrayBuffer.isView(v)) return v.byteLength;
  const { data, values } = v as { data?: ArrayBufferView; values?: ArrayBufferView };
  return (data?.byteLength ?? 0) + (values?.byteLength ?? 0);
}

describe.skipIf(!probe.available)('intermediates kept on a CUDA device', () => {
  const graph = generate({ kind: 'kronecker', scale: 13, edgeFactor: 8, seed: 5 });
  const planner = new Planner(cpuAndCard('cuda-staged'), graph);

  it('GCN all on the card: only the output comes home; each input goes in once', async () => {
    const first = await planner.plan('gcn');
    const plan = withGenome(first, allOn(first, 'gpu'));
    const result = await runPlan(plan, { replan: false, bfsLevels: false });
    expectReferenceOutputs(plan, result);
    const bound = plan.problem.bound;
    const outputBytes = bound.outputs.reduce((s, v) => s + bytesOf(result.outputs[bound.values[v]!.name]), 0);
    // Beside the output: a 4-byte error word per SpMM.
    expect(result.deviceCopies.toHostBytes).toBeGreaterThanOrEqual(outputBytes);
    expect(result.deviceCopies.toHostBytes).toBeLessThan(outputBytes + 64 * result.pieces.length);
    // In: the graph's columns and values (prefetched once), the features and weights, and per
    // SpMM the rows' metadata built on the host (rebased 8-byte row pointers, a 4-byte row order).
    const inputs = bound.values.filter((v) => v.producer < 0).reduce((s, v) => s + bytesOf(v.data), 0);
    const rowPointers = bound.ops.filter((op) => op.kind === 'spmm').length * 12 * (graph.rows + 1);
    expect(result.deviceCopies.toDeviceBytes).toBeLessThanOrEqual(inputs + graph.colIdx.byteLength + rowPointers + 1024);
    for (const p of result.pieces) expect(p.copies, `${p.op}: copies recorded`).toBeDefined();
  });

  it('an operator on the CPU between card operators reads its operand fetched home', async () => {
    const first = await planner.plan('gcn');
    const genome = allOn(first, 'gpu');
    const ops = first.problem.bound.ops;
    const relu = ops.findIndex((op) => op.kind === 'relu');
    expect(relu).toBeGreaterThan(0);
    genome[relu] = wholeOn(first, relu, 'cpu');
    const plan = withGenome(first, genome);
    const result = await runPlan(plan, { replan: false, bfsLevels: false, keepValues: true });
    expectReferenceOutputs(plan, result);
    // Every value, fetched at the end under keepValues, equals a fresh all-CPU run's.
    const cpu = await runPlan(withGenome(first, allOn(first, 'cpu')), { replan: false, bfsLevels: false, keepValues: true });
    for (const op of ops) {
      const a = result.values![op.id] as { data?: ArrayLike<number> };
      const b = cpu.values![op.id] as { data?: ArrayLike<number> };
      if (!a.data || !b.data) continue;
      let worst = 0;
      for (let j = 0; j < a.data.length; j++) worst = Math.max(worst, Math.abs(a.data[j]! - b.data[j]!) / (1 + Math.abs(b.data[j]!)));
      expect(worst, `${op.id}`).toBeLessThan(1e-3);
    }
  });
});
