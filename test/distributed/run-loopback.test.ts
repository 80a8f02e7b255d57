// Whole workloads across 2 and 4 loopback ranks (runDistributed): GCN, GraphSAGE, PageRank, SpMM,
// BFS and multi-source BFS gathered equal the single-process reference (dense outputs within a
// relative 1e-5 of their largest magnitude in f32: only summation orders differ; depths exactly),
// under row-block and METIS partitions; operators without a distributed form are refused by type.

import { describe, expect, it } from 'vitest';
import type { CsrMatrix } from '../../src/data/csr.js';
import { DenseMatrix } from '../../src/data/dense.js';
import { metisAvailable } from '../../src/data/partition.js';
import { runDistributed } from '../../src/distributed/run.js';
import { UnsupportedError } from '../../src/errors.js';
import { generate } from '../../src/generators/index.js';
import { referenceValues } from '../../src/workloads/reference.js';
import { loopback } from './loopback.js';

const graph = generate({ kind: 'kronecker', scale: 9, seed: 12 }) as CsrMatrix;
const partitioners: ('rows' | 'metis')[] = ['rows', ...(metisAvailable().available ? ['metis' as const] : [])];

function maxDiff(a: DenseMatrix, b: DenseMatrix): { diff: number; scale: number } {
  let diff = 0;
  let scale = 0;
  for (let i = 0; i < a.data.length; i++) {
    diff = Math.max(diff, Math.abs(a.data[i]! - b.data[i]!));
    scale = Math.max(scale, Math.abs(b.data[i]!));
  }
  return { diff, scale };
}

describe('runDistributed on loopback ranks', () => {
  for (const workload of ['gcn', 'sage', 'pagerank', 'spmm', 'bfs', 'msbfs'])
    for (const partitioner of partitioners)
      for (const size of [2, 4])
        it(`${workload}, ${partitioner}, ${size} ranks: outputs equal the reference`, async () => {
          const input = workload === 'spmm' ? { A: graph, X: randomX(graph.rows) } : graph;
          const runs = await Promise.all(
            loopback(size).map((comm) => runDistributed(comm, workload, input, { partitioner, params: workload === 'msbfs' ? { sources: 4 } : {} })),
          );
          const ref = referenceValues(runs[0]!.bound);
          for (const run of runs)
            for (const o of run.bound.outputs) {
              const name = run.bound.values[o]!.name;
              const got = run.outputs[name]!;
              const want = ref[o]!;
              if (want instanceof Int32Array) expect(Array.from(got as Int32Array)).toEqual(Array.from(want));
              else {
                const { diff, scale } = maxDiff(got as DenseMatrix, want as DenseMatrix);
                expect(diff).toBeLessThanOrEqual(1e-5 * Math.max(scale, 1e-30));
              }
            }
          if (workload !== 'bfs' && workload !== 'msbfs') expect(runs.some((r) => r.bytesSent > 0)).toBe(true);
        });

  it('refuses an operator without a distributed form', async () => {
    const [comm] = loopback(1);
    await expect(runDistributed(comm!, 'gat', graph)).rejects.toThrow(UnsupportedError);
    await expect(runDistributed(comm!, 'gat', graph)).rejects.toThrow(/runDistributed: operator \w+ \(sddmm\) has no distributed form yet/);
    await expect(runDistributed(comm!, 'gcn', graph, { partitoner: 'rows' } as never)).rejects.toThrow(/unknown option "partitoner"/);
  });
});

function randomX(rows: number): DenseMatrix {
  const x = DenseMatrix.zeros(rows, 32);
  for (let i = 0; i < x.data.length; i++) x.data[i] = Math.sin(i * 0.37);
  return x;
}
