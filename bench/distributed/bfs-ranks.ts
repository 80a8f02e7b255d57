// Distributed BFS under MPI: every rank builds its share of the graph, searches from a few sources
// (direction-optimising), and the gathered depths are checked against the single-process
// reference. Rank 0 prints one JSON line per source: correctness, the slowest rank's seconds, and
// per level the direction, the frontier and the bytes all ranks sent (vertices and frontier bits,
// and apart the message counts), beside what the Graph500
// reference MPI BFS would send on the same partition: its top-down levels send one visit message
// of two 32-bit integers for every edge from a frontier vertex to a vertex another rank owns
// (counted here from the reference depths and the partition alone, not from dype's search). Beside
// them, what was predicted before the search (`predictBfsExchange` on the interconnect measured at
// start): each level's bytes, which must equal the search's, and its exchange seconds against the
// slowest rank's measured ones.
// Run: OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
//        mpirun --oversubscribe -np 4 node --import tsx bench/distributed/bfs-ranks.ts \
//        [--graph kron:16|grid:300x300|email-Enron] [--partitioners rows,metis] [--sources 4] [--direction auto]

import { parseArgs } from 'node:util';
import { loadGraph, partitionsOf, spreadSources } from './graphs.js';
import type { CsrMatrix } from '../../src/data/csr.js';
import { splitExchanges } from '../../src/distributed/exchange-timing.js';
import { distributedBfs } from '../../src/distributed/bfs.js';
import { predictBfsExchange } from '../../src/distributed/bfs-prediction.js';
import { measureInterconnect } from '../../src/distributed/interconnect.js';
import { gatherVertices } from '../../src/distributed/gather.js';
import { DistributedCsr } from '../../src/distributed/halo.js';
import { initMpi } from '../../src/distributed/mpi.js';
import { bfsReference } from '../../src/kernels/reference.js';

const { values: args } = parseArgs({
  options: {
    graph: { type: 'string', default: 'kron:12' },
    partitioners: { type: 'string', default: 'rows,metis' },
    sources: { type: 'string', default: '4' },
    direction: { type: 'string', default: 'auto' },
  },
  strict: true,
});
const comm = initMpi();
const net = await measureInterconnect(comm);

/** Bytes the Graph500 reference BFS sends at each level: 8 per frontier edge whose end another rank owns. */
function graph500Bytes(a: CsrMatrix, owner: Int32Array, depths: Int32Array, levels: number): number[] {
  const out = new Array<number>(levels).fill(0);
  for (let v = 0; v < a.rows; v++) {
    const d = depths[v]!;
    if (d < 0 || d >= levels) continue;
    for (let e = a.rowStart(v); e < a.rowStart(v + 1); e++) if (owner[a.colIdx[e]!] !== owner[v]) out[d]! += 8;
  }
  return out;
}

const a = await loadGraph(args.graph);
const sources = spreadSources(a, Number(args.sources));
for (const [method, partition] of partitionsOf(args.partitioners, a, comm.size)) {
  const dist = await DistributedCsr.build(comm, a, partition);
  // Untimed searches first: the level loops are TypeScript, and a cold search ran 4-6x slower than
  // a warm one (in one process, Kronecker 16: 35 ms against 6-9 ms), so the partitioner measured
  // first (row blocks) looked slow.
  for (let i = 0; i < 3; i++) await distributedBfs(comm, dist, sources[i % sources.length]!, { direction: args.direction as 'auto' });
  for (const source of sources) {
    await comm.barrier();
    const s = await distributedBfs(comm, dist, source, { direction: args.direction as 'auto' });
    const depths = await gatherVertices(comm, dist, s.depths);
    const perLevel = Float64Array.from(s.levels.flatMap((l) => [l.bytesSent, l.controlBytes]));
    await comm.allreduce(perLevel, 'sum');
    const slowest = Float64Array.of(s.seconds, ...s.levels.map((l) => l.exchangeSeconds));
    await comm.allreduce(slowest, 'max');
    // Each level's exchange from the last rank's arrival to the slowest rank's completion: the
    // bytes' time, without the wait for the last rank (exchange-timing.ts).
    const transfer = new Float64Array(s.levels.length);
    for (const [i, l] of s.levels.entries()) transfer[i] = (await splitExchanges(comm, [l.exchangeSpan]))?.transferSeconds ?? Number.NaN;
    await comm.allreduce(transfer, 'max');
    if (comm.rank === 0) {
      const want = bfsReference(a, source);
      const correct = want.every((d, v) => depths[v] === d);
      const reference = graph500Bytes(a, partition.owner, want, s.levels.length);
      const predicted = predictBfsExchange(a, partition, source, { direction: args.direction as 'auto', interconnect: net });
      const levels = s.levels.map((l, i) => ({
        direction: l.direction,
        frontier: l.frontier,
        bytes: perLevel[2 * i]!,
        controlBytes: perLevel[2 * i + 1]!,
        graph500Bytes: reference[i]!,
        predictedBytes: predicted[i]?.bytesSent.reduce((t, b) => t + b, 0),
        exchangeMs: slowest[1 + i]! * 1e3,
        transferMs: transfer[i]! * 1e3,
        predictedExchangeMs: (predicted[i]?.seconds ?? Number.NaN) * 1e3,
      }));
      const measuredExchange = levels.reduce((t, l) => t + l.transferMs, 0);
      const predictedExchange = levels.reduce((t, l) => t + l.predictedExchangeMs, 0);
      const total = levels.reduce((t, l) => t + l.bytes, 0);
      const control = levels.reduce((t, l) => t + l.controlBytes, 0);
      const totalReference = reference.reduce((t, b) => t + b, 0);
      process.stdout.write(
        `${JSON.stringify({
          graph: args.graph,
          rows: a.rows,
          entries: a.nnz,
          ranks: comm.size,
          partitioner: method,
          source,
          symmetric: dist.symmetric,
          correct,
          ms: Math.round(slowest[0]! * 1e6) / 1e3,
          bytes: total,
          controlBytes: control,
          graph500Bytes: totalReference,
          predictedBytesExact: predicted.length === levels.length && levels.every((l) => l.predictedBytes === l.bytes),
          // Sums over levels: the slowest rank's exchange (waiting for the others included), and from the last arrival (the transfer).
          slowestExchangeMs: Math.round(levels.reduce((t, l) => t + l.exchangeMs, 0) * 1e3) / 1e3,
          exchangeMs: Math.round(measuredExchange * 1e3) / 1e3,
          predictedExchangeMs: Math.round(predictedExchange * 1e3) / 1e3,
          predictedOverMeasured: Math.round((predictedExchange / measuredExchange) * 100) / 100,
          // Vertices and frontier bits against the reference's visit messages, level by level (counts apart: the reference's own are not counted either).
          worstLevelRatio: Math.max(...levels.map((l) => (l.graph500Bytes > 0 ? l.bytes / l.graph500Bytes : l.bytes > 0 ? Number.MAX_VALUE : 0))),
          levels,
        })}\n`,
      );
      if (!correct) process.exitCode = 1;
    }
  }
}
comm.finalize();
