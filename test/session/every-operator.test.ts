// Every operator kind a session offers runs through it and gives the reference's value: the
// TypeScript reference of the batch's own bound workload, operator by operator (an SDDMM's
// sparse handle feeds an SpMM; BFS and multi-source BFS give depths).

import { expect, it } from 'vitest';
import { DenseMatrix } from '../../src/data/dense.js';
import { denseFeatures } from '../../src/generators/index.js';
import type { BatchRecord } from '../../src/session/session.js';
import { referenceValues } from '../../src/workloads/reference.js';
import { expectSameValue, machine, quietSession, smallGraph } from './session-fixtures.js';

it('spmv, sddmm, gemm, affine, add, reduce, bfs and msbfs equal the reference', async () => {
  const { system, model } = machine();
  const graph = smallGraph(2);
  const n = graph.rows;
  const v = new DenseMatrix(n, 1, new Float32Array(n).fill(1 / n));
  const u = denseFeatures({ rows: n, cols: 4, seed: 1 });
  const w = denseFeatures({ rows: 4, cols: 3, seed: 2 });
  const batches: BatchRecord[] = [];
  const s = quietSession(system, model, { onBatch: (b) => batches.push(b) });
  const handles = [
    s.spmv(graph, v),
    s.spmm(s.sddmm(graph, u, u), u),
    s.reduce(s.add(s.affine(s.gemm(u, w), { scale: -2, shift: 0.5 }), s.gemm(u, w)), { op: 'norm2' }),
    s.bfs(graph, { source: 3 }),
    s.msbfs(graph, { sources: 4 }),
  ];
  expect([handles[3]!.rows, handles[3]!.cols, handles[4]!.rows, handles[4]!.cols]).toEqual([1, n, 4, n]);
  await s.flush();
  expect(batches).toHaveLength(1);
  const bound = batches[0]!.plan!.problem.bound;
  const ref = referenceValues(bound);
  // Every value of the batch (intermediates included) against the reference; the handles hold them.
  const values = batches[0]!.result!.values!;
  for (const op of bound.ops) expectSameValue(values[op.id], ref[op.output]!, `${op.id} (${op.kind})`);
  for (const h of handles) expect(await h.value()).toBe(values[h.id]);
  await s.close();
  await system.dispose();
});
