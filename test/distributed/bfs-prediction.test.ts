// The BFS exchange predicted before a search runs (predictBfsExchange) is what the search then
// sends: on 2 and 4 loopback ranks, under row-block and METIS partitions, on undirected and
// directed graphs, every level's direction, frontier, each rank's bytes and its control bytes
// equal the distributed search's own record; with an interconnect each level is priced; bad
// arguments are typed errors naming the function.

import { describe, expect, it } from 'vitest';
import type { CsrMatrix } from '../../src/data/csr.js';
import { partitionRows } from '../../src/data/partition.js';
import { distributedBfs } from '../../src/distributed/bfs.js';
import { predictBfsExchange } from '../../src/distributed/bfs-prediction.js';
import { DistributedCsr } from '../../src/distributed/halo.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { generate } from '../../src/generators/index.js';
import { partitioners } from './fixtures/partitioners.js';
import { loopback } from './loopback.js';

const graphs: [string, () => CsrMatrix][] = [
  ['kronecker 11', () => generate({ kind: 'kronecker', scale: 11, seed: 4 }) as CsrMatrix],
  ['grid 50x40', () => generate({ kind: 'grid', rows: 50, cols: 40, seed: 6 }) as CsrMatrix],
  ['directed kronecker 10', () => generate({ kind: 'kronecker', scale: 10, seed: 8, directed: true }) as CsrMatrix],
];

describe('predictBfsExchange', () => {
  for (const [name, make] of graphs)
    for (const [method, partition] of partitioners)
      it(`${name}, ${method} partition: predicts every level's bytes on 2 and 4 ranks exactly`, async () => {
        const a = make();
        // Vertex 0, and the vertex with the most out-edges (a directed graph's vertex 0 may have none).
        let hub = 0;
        for (let v = 0; v < a.rows; v++) if (a.rowLength(v) > a.rowLength(hub)) hub = v;
        let sent = 0;
        for (const size of [2, 4]) {
          const p = partition(a, size);
          for (const source of [0, hub]) {
            const predicted = predictBfsExchange(a, p, source);
            const ranks = await Promise.all(loopback(size).map(async (comm) => distributedBfs(comm, await DistributedCsr.build(comm, a, p), source)));
            ranks.forEach((search, rank) => {
              expect(search.levels.map((l) => [l.direction, l.frontier, l.bytesSent, l.controlBytes])).toEqual(
                predicted.map((l) => [l.direction, l.frontier, l.bytesSent[rank], l.controlBytes[rank]]),
              );
            });
            for (const l of predicted) for (const b of l.bytesSent) sent += b;
          }
        }
        expect(sent).toBeGreaterThan(0);
      });

  it('prices each level on an interconnect: latencies for the counts, bytes at the bandwidth', () => {
    const a = generate({ kind: 'grid', rows: 20, cols: 20, seed: 1 }) as CsrMatrix;
    const net = { latencySeconds: 1e-6, bytesPerSecond: 1e9, source: 'a test network' };
    const levels = predictBfsExchange(a, partitionRows(a, 4), 0, { interconnect: net, direction: 'top-down' });
    for (const l of levels) {
      const most = Math.max(...l.bytesSent);
      // Counts go only to neighbouring blocks: an inner block's two latencies at least, and the
      // busiest rank's bytes on the wire after its one count at least.
      expect(l.seconds!).toBeGreaterThanOrEqual(Math.max(2 * net.latencySeconds, net.latencySeconds + most / net.bytesPerSecond) - 1e-15);
      // Each block sends counts to its neighbours only: 4 bytes each, not one to every rank.
      expect(Array.from(l.controlBytes)).toEqual([4, 8, 8, 4]);
    }
    expect(predictBfsExchange(a, partitionRows(a, 4), 0)[0]!.seconds).toBeUndefined();
  });

  it("prices each level with the caches as its work left them: thin levels near the back-to-back figures, a search's first after its set-up", () => {
    const a = generate({ kind: 'grid', rows: 20, cols: 20, seed: 1 }) as CsrMatrix;
    const pts = (t: number): [number, number][] => [
      [8, t],
      [1 << 20, 2 * t],
    ];
    const net = {
      latencySeconds: 1e-3,
      bytesPerSecond: 1e9,
      source: 'a test network',
      points: pts(1e-3),
      cacheStates: [
        { touchedBytes: 0, points: pts(1e-6) },
        { touchedBytes: 1 << 20, points: pts(1e-3) },
      ],
    };
    const levels = predictBfsExchange(a, partitionRows(a, 2), 0, { interconnect: net, direction: 'top-down' });
    // A 400-vertex grid's levels scan a few dozen entries: far under 1 MiB, near the warm figure.
    for (const l of levels.slice(1)) expect(l.seconds!).toBeLessThan(2e-4);
    // The first follows the set-up's pass over the rank's rows: colder than the next.
    expect(levels[0]!.seconds!).toBeGreaterThan(levels[1]!.seconds!);
    // Without cache states every level is priced on the points.
    const plain = predictBfsExchange(a, partitionRows(a, 2), 0, { interconnect: { ...net, cacheStates: [] }, direction: 'top-down' });
    for (const l of plain) expect(l.seconds!).toBeGreaterThanOrEqual(1e-3);
  });

  it('refuses bad arguments, naming the value', () => {
    const a = generate({ kind: 'grid', rows: 4, cols: 4, seed: 1 }) as CsrMatrix;
    const p = partitionRows(a, 2);
    expect(() => predictBfsExchange(a, p, 16)).toThrow(InvalidArgumentError);
    expect(() => predictBfsExchange(a, { ...p, owner: new Int32Array(3) }, 0)).toThrow(/predictBfsExchange: partition.owner must give each of the 16 rows/);
    expect(() => predictBfsExchange(a, p, 0, { alpha: 0 })).toThrow(/predictBfsExchange: alpha must be a positive number, got 0/);
    const directed = generate({ kind: 'kronecker', scale: 6, seed: 8, directed: true }) as CsrMatrix;
    expect(() => predictBfsExchange(directed, partitionRows(directed, 2), 0, { direction: 'bottom-up' })).toThrow(/need a symmetric pattern/);
  });
});
