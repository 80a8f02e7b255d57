// Distributed BFS on 2 and 4 loopback ranks: gathered depths equal the single-process reference
// exactly, direction-optimising, top-down and bottom-up, under row-block and METIS partitions, on
// undirected and directed graphs (directed ones search top-down); top-down sends each halo vertex
// at most once a search; bad arguments are typed errors naming the function.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CsrMatrix } from '../../src/data/csr.js';
import { partitionRows, partitionStats, type RowPartition } from '../../src/data/partition.js';
import { distributedBfs, type DistributedBfsOptions } from '../../src/distributed/bfs.js';
import { gatherVertices } from '../../src/distributed/gather.js';
import { DistributedCsr } from '../../src/distributed/halo.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { generate } from '../../src/generators/index.js';
import { loadMatrixMarket } from '../../src/io/index.js';
import { bfsReference } from '../../src/kernels/reference.js';
import { haveDatasets, sharedDatasets } from '../support/datasets.js';
import { partitioners } from './fixtures/partitioners.js';
import { loopback } from './loopback.js';

async function search(a: CsrMatrix, partition: RowPartition, size: number, source: number, options: DistributedBfsOptions = {}) {
  return Promise.all(
    loopback(size).map(async (comm) => {
      const dist = await DistributedCsr.build(comm, a, partition);
      const s = await distributedBfs(comm, dist, source, options);
      return { dist, search: s, depths: await gatherVertices(comm, dist, s.depths) };
    }),
  );
}

const graphs: [string, () => CsrMatrix | Promise<CsrMatrix>][] = [
  ['kronecker 11', () => generate({ kind: 'kronecker', scale: 11, seed: 4 }) as CsrMatrix],
  ['grid 50x40 (long diameter)', () => generate({ kind: 'grid', rows: 50, cols: 40, seed: 6 }) as CsrMatrix],
  ['directed kronecker 10', () => generate({ kind: 'kronecker', scale: 10, seed: 8, directed: true }) as CsrMatrix],
  ...(haveDatasets
    ? [
        ['email-Enron (shared)', async () => (await loadMatrixMarket(join(sharedDatasets, 'email-Enron.mtx'), { format: 'coordinate' })) as CsrMatrix] as [
          string,
          () => Promise<CsrMatrix>,
        ],
      ]
    : []),
];

describe('distributedBfs on loopback ranks', () => {
  for (const [name, make] of graphs)
    for (const [method, partition] of partitioners)
      for (const size of [2, 4])
        it(`${name}, ${method} partition, ${size} ranks: depths equal the reference`, async () => {
          const a = await make();
          const p = partition(a, size);
          const directions: NonNullable<DistributedBfsOptions['direction']>[] = ['auto', 'top-down'];
          const ranks0 = await search(a, p, size, 0);
          if (ranks0[0]!.dist.symmetric) directions.push('bottom-up');
          for (const source of [0, a.rows >> 1, a.rows - 1]) {
            const want = bfsReference(a, source);
            for (const direction of directions) {
              const ranks = await search(a, p, size, source, { direction });
              for (const r of ranks) expect(Array.from(r.depths)).toEqual(Array.from(want));
              if (direction === 'auto' && ranks[0]!.dist.symmetric && want.filter((d) => d >= 0).length > a.rows / 2) {
                // A search that reaches most of a power-law graph takes bottom-up levels.
                if (name.startsWith('kronecker')) expect(ranks[0]!.search.levels.some((l) => l.direction === 'bottom-up')).toBe(true);
              }
              if (direction === 'top-down') {
                // Each of a rank's halo vertices is sent at most once a search: 4 bytes each.
                const halo = partitionStats(a, p).parts;
                ranks.forEach((r, k) => {
                  const sent = r.search.levels.reduce((s, l) => s + l.bytesSent, 0);
                  expect(sent).toBeLessThanOrEqual(4 * halo[k]!.halo);
                });
              }
            }
          }
        });

  it('refuses a source outside the graph, unknown options, and bottom-up on a directed graph', async () => {
    const a = generate({ kind: 'kronecker', scale: 6, seed: 1, directed: true }) as CsrMatrix;
    const [comm] = loopback(1);
    const dist = await DistributedCsr.build(comm!, a, partitionRows(a, 1));
    expect(dist.symmetric).toBe(false);
    await expect(distributedBfs(comm!, dist, 64)).rejects.toThrow(/distributedBfs: source must be a vertex in \[0, 63\], got 64/);
    await expect(distributedBfs(comm!, dist, 0, { direction: 'bottom-up' })).rejects.toThrow(/needs a symmetric pattern/);
    await expect(distributedBfs(comm!, dist, 0, { directon: 'auto' } as never)).rejects.toThrow(InvalidArgumentError);
    await expect(distributedBfs(comm!, dist, 0, { alpha: 0 })).rejects.toThrow(/alpha must be a positive number/);
  });
});
