// Distributed multi-source BFS on 2 and 4 loopback ranks: every source's gathered depths equal the
// single-process reference exactly, in one batch and across batches of 32, under row-block and
// METIS partitions, on undirected, directed and long-diameter graphs; a batch sends fewer bytes
// than the same sources searched one by one top-down; bad sources are typed errors naming the
// function and the value.

import { describe, expect, it } from 'vitest';
import type { CsrMatrix } from '../../src/data/csr.js';
import { partitionRows } from '../../src/data/partition.js';
import { distributedBfs } from '../../src/distributed/bfs.js';
import { gatherVertices } from '../../src/distributed/gather.js';
import { DistributedCsr } from '../../src/distributed/halo.js';
import { distributedMsbfs } from '../../src/distributed/msbfs.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { generate } from '../../src/generators/index.js';
import { bfsReference } from '../../src/kernels/reference.js';
import { partitioners } from './fixtures/partitioners.js';
import { loopback } from './loopback.js';

const graphs: [string, () => CsrMatrix][] = [
  ['kronecker 11', () => generate({ kind: 'kronecker', scale: 11, seed: 4 }) as CsrMatrix],
  ['grid 50x40 (long diameter)', () => generate({ kind: 'grid', rows: 50, cols: 40, seed: 6 }) as CsrMatrix],
  ['directed kronecker 10', () => generate({ kind: 'kronecker', scale: 10, seed: 8, directed: true }) as CsrMatrix],
];

/** `count` sources spread over the vertices, with one repeated (two bits of a batch, one vertex). */
const spread = (n: number, count: number): number[] => [...Array.from({ length: count - 1 }, (_, i) => Math.floor((i * 7919) % n)), 0];

describe('distributedMsbfs on loopback ranks', () => {
  for (const [name, make] of graphs)
    for (const [method, partition] of partitioners)
      for (const size of [2, 4])
        it(`${name}, ${method} partition, ${size} ranks: every source's depths equal the reference`, async () => {
          const a = make();
          const p = partition(a, size);
          for (const count of [5, 40]) {
            const sources = spread(a.rows, count);
            const ranks = await Promise.all(
              loopback(size).map(async (comm) => {
                const dist = await DistributedCsr.build(comm, a, p);
                const search = await distributedMsbfs(comm, dist, sources);
                const depths: Int32Array[] = [];
                for (const d of search.depths) depths.push(await gatherVertices(comm, dist, d));
                return { search, depths };
              }),
            );
            for (const rank of ranks) sources.forEach((s, i) => expect(Array.from(rank.depths[i]!), `source ${s}`).toEqual(Array.from(bfsReference(a, s))));
            expect(new Set(ranks[0]!.search.levels.map((l) => l.batch)).size).toBe(Math.ceil(count / 32));
          }
        });

  it('sends fewer bytes than the same sources searched one by one top-down', async () => {
    const a = generate({ kind: 'kronecker', scale: 11, seed: 4 }) as CsrMatrix;
    const p = partitionRows(a, 4);
    const sources = spread(a.rows, 32);
    const bytes = await Promise.all(
      loopback(4).map(async (comm) => {
        const dist = await DistributedCsr.build(comm, a, p);
        const batch = (await distributedMsbfs(comm, dist, sources)).levels.reduce((t, l) => t + l.bytesSent, 0);
        let single = 0;
        for (const s of sources) single += (await distributedBfs(comm, dist, s, { direction: 'top-down' })).levels.reduce((t, l) => t + l.bytesSent, 0);
        return { batch, single };
      }),
    );
    const total = (k: 'batch' | 'single'): number => bytes.reduce((t, b) => t + b[k], 0);
    expect(total('batch')).toBeGreaterThan(0);
    expect(total('batch')).toBeLessThan(total('single'));
  });

  it('refuses bad sources with a typed error naming the value', async () => {
    const a = generate({ kind: 'grid', rows: 10, cols: 10, seed: 1 }) as CsrMatrix;
    const [comm] = loopback(1);
    const dist = await DistributedCsr.build(comm!, a, partitionRows(a, 1));
    await expect(distributedMsbfs(comm!, dist, [])).rejects.toThrow(InvalidArgumentError);
    await expect(distributedMsbfs(comm!, dist, [3, 100])).rejects.toThrow('distributedMsbfs: sources[1] must be a vertex in [0, 99], got 100');
    await expect(distributedMsbfs(comm!, dist, [1.5])).rejects.toThrow(/sources\[0\] must be a vertex/);
  });
});
