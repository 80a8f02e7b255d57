// Distributed SpMM on 2 and 4 ranks in one process (loopback communicators): every rank's rows,
// gathered, equal the single-process reference within the summation bound, under row-block and
// METIS partitions, in both precisions, on generated graphs and a shared dataset; each rank
// receives exactly its halo; and bad arguments are typed errors naming the function.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CsrMatrix } from '../../src/data/csr.js';
import { DenseMatrix } from '../../src/data/dense.js';
import { partitionRows, partitionStats, type RowPartition } from '../../src/data/partition.js';
import { DistributedCsr } from '../../src/distributed/halo.js';
import { gatherRows } from '../../src/distributed/gather.js';
import { distributedSpmm, localRowsOf } from '../../src/distributed/spmm.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { denseFeatures, generate } from '../../src/generators/index.js';
import { loadMatrixMarket } from '../../src/io/index.js';
import { firstSpmmMismatch } from '../support/compare.js';
import { haveDatasets, sharedDatasets } from '../support/datasets.js';
import { partitioners } from './fixtures/partitioners.js';
import { loopback } from './loopback.js';

/** Run the product on `size` loopback ranks; every rank's gathered Y (they must agree) and the dists. */
async function runRanks(a: CsrMatrix, x: DenseMatrix, partition: RowPartition, size: number) {
  const comms = loopback(size);
  return Promise.all(
    comms.map(async (comm) => {
      const dist = await DistributedCsr.build(comm, a, partition);
      const { y, bytesSent } = await distributedSpmm(comm, dist, localRowsOf(dist, x));
      return { dist, bytesSent, whole: await gatherRows(comm, dist, y) };
    }),
  );
}

const graphs: [string, () => CsrMatrix | Promise<CsrMatrix>][] = [
  ['kronecker 10', () => generate({ kind: 'kronecker', scale: 10, seed: 5 }) as CsrMatrix],
  ['grid 40x30', () => generate({ kind: 'grid', rows: 40, cols: 30, seed: 7 }) as CsrMatrix],
  ...(haveDatasets
    ? [
        ['bcsstk13 (shared)', async () => (await loadMatrixMarket(join(sharedDatasets, 'bcsstk13.mtx'), { format: 'coordinate' })) as CsrMatrix] as [
          string,
          () => Promise<CsrMatrix>,
        ],
      ]
    : []),
];

describe('distributedSpmm on loopback ranks', () => {
  for (const [name, make] of graphs)
    for (const [method, partition] of partitioners)
      for (const size of [2, 4])
        it(`${name}, ${method} partition, ${size} ranks: equals the reference in f32 and f64`, async () => {
          const a = await make();
          const p = partition(a, size);
          for (const precision of ['f32', 'f64'] as const) {
            const x = denseFeatures({ rows: a.cols, cols: 8, seed: 11, precision });
            const ranks = await runRanks(a, x, p, size);
            for (const { whole } of ranks) expect(firstSpmmMismatch(a, x.data, 8, whole.data)).toBe(-1);
            // Each rank received exactly its halo, and sent what the others' halos hold of its rows.
            const stats = partitionStats(a, p);
            ranks.forEach(({ dist }, r) => expect(dist.halo.length).toBe(stats.parts[r]!.halo));
            const sent = ranks.reduce((s, r) => s + r.bytesSent, 0);
            expect(sent).toBe(stats.haloTotal * 8 * x.data.BYTES_PER_ELEMENT);
          }
        });

  it('handles a rank that owns no rows', async () => {
    const a = generate({ kind: 'grid', rows: 3, cols: 3, seed: 1 }) as CsrMatrix;
    const owner = new Int32Array(a.rows); // everything on rank 0; rank 1 owns nothing
    const x = denseFeatures({ rows: a.cols, cols: 4, seed: 2 });
    const ranks = await runRanks(a, x, { parts: 2, method: 'rows', owner }, 2);
    expect(ranks[1]!.dist.localRows).toBe(0);
    for (const { whole } of ranks) expect(firstSpmmMismatch(a, x.data, 4, whole.data)).toBe(-1);
  });

  it('keeps interior rows free of halo columns', async () => {
    const a = generate({ kind: 'grid', rows: 20, cols: 20, seed: 3 }) as CsrMatrix;
    const [r0] = await Promise.all(loopback(2).map((c) => DistributedCsr.build(c, a, partitionRows(a, 2))));
    const { local, interior } = r0!;
    expect(interior).toBeGreaterThan(0);
    for (let e = 0; e < local.rowStart(interior); e++) expect(local.colIdx[e]!).toBeLessThan(local.rows);
    expect(interior).toBeLessThan(local.rows);
  });

  it('refuses a matrix that is not square, a partition of the wrong size, and x of the wrong rows', async () => {
    const [comm] = loopback(1);
    const rect = new CsrMatrix({ rows: 2, cols: 3, rowPtr: Int32Array.from([0, 1, 2]), colIdx: Int32Array.from([0, 2]) });
    const a = generate({ kind: 'grid', rows: 4, cols: 4, seed: 1 }) as CsrMatrix;
    await expect(DistributedCsr.build(comm!, a, partitionRows(a, 2))).rejects.toThrow(
      /DistributedCsr.build: the partition has 2 parts but the communicator has 1 ranks/,
    );
    await expect(DistributedCsr.build(comm!, a, { parts: 1, method: 'rows', owner: new Int32Array(3) })).rejects.toThrow(InvalidArgumentError);
    await expect(DistributedCsr.build(comm!, a, { parts: 1, method: 'rows', owner: new Int32Array(a.rows).fill(5) })).rejects.toThrow(
      /owner\[0\] = 5 is outside \[0, 1\)/,
    );
    await expect(DistributedCsr.build(comm!, rect, partitionRows(a, 1))).rejects.toThrow(/DistributedCsr.build: a must be square .* got 2x3/);
    const dist = await DistributedCsr.build(comm!, a, partitionRows(a, 1));
    await expect(distributedSpmm(comm!, dist, DenseMatrix.zeros(3, 2))).rejects.toThrow(/distributedSpmm: x has 3 rows but rank 0 owns 16 rows/);
  });
});
