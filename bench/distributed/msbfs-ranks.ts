// Distributed multi-source BFS under MPI: the sources searched together in batches of 32
// (`distributedMsbfs`) against the same sources searched one by one (`distributedBfs`,
// direction-optimising), on the same ranks and partition, in alternated rounds. Every source's
// gathered depths from the batch are checked against the single-process reference. Rank 0 prints
// one JSON line per partitioner: correctness, the slowest rank's median milliseconds for each side
// and their ratio, the rounds of exchanges (each an allreduce and two alltoallv) and the bytes
// all ranks sent.
// Run: OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 DYPE_THREADS=1 \
//        mpirun --oversubscribe -x DYPE_THREADS -np 2 node --import tsx bench/distributed/msbfs-ranks.ts \
//        [--graph kron:16|grid:300x300|email-Enron] [--partitioners rows,metis] [--sources 32] [--rounds 5]

import { parseArgs } from 'node:util';
import { distributedBfs } from '../../src/distributed/bfs.js';
import { gatherVertices } from '../../src/distributed/gather.js';
import { DistributedCsr } from '../../src/distributed/halo.js';
import { initMpi } from '../../src/distributed/mpi.js';
import { distributedMsbfs } from '../../src/distributed/msbfs.js';
import { bfsReference } from '../../src/kernels/reference.js';
import { median } from '../../src/stats.js';
import { loadGraph, partitionsOf, spreadSources } from './graphs.js';

const { values: args } = parseArgs({
  options: {
    graph: { type: 'string', default: 'kron:14' },
    partitioners: { type: 'string', default: 'rows,metis' },
    sources: { type: 'string', default: '32' },
    rounds: { type: 'string', default: '5' },
  },
  strict: true,
});
const comm = initMpi();
const a = await loadGraph(args.graph);
const sources = spreadSources(a, Number(args.sources));

/** Seconds of `work` on the slowest rank, started together. */
async function slowest(work: () => Promise<unknown>): Promise<number> {
  await comm.barrier();
  const t = performance.now();
  await work();
  const s = Float64Array.of((performance.now() - t) / 1000);
  await comm.allreduce(s, 'max');
  return s[0]!;
}

for (const [method, partition] of partitionsOf(args.partitioners, a, comm.size)) {
  const dist = await DistributedCsr.build(comm, a, partition);
  const batch = await distributedMsbfs(comm, dist, sources); // warm, and the record
  let singleRounds = 0;
  const counts = Float64Array.of(0, 0);
  for (const l of batch.levels) counts[0]! += l.bytesSent + l.controlBytes;
  for (const s of sources) {
    const r = await distributedBfs(comm, dist, s);
    singleRounds += r.levels.length;
    for (const l of r.levels) counts[1]! += l.bytesSent + l.controlBytes;
  }
  await comm.allreduce(counts, 'sum');
  const times = { batch: [] as number[], single: [] as number[] };
  for (let r = 0; r < Number(args.rounds); r++) {
    const order = r % 2 === 0 ? (['batch', 'single'] as const) : (['single', 'batch'] as const);
    for (const side of order)
      times[side].push(
        await slowest(async () => {
          if (side === 'batch') await distributedMsbfs(comm, dist, sources);
          else for (const s of sources) await distributedBfs(comm, dist, s);
        }),
      );
  }
  let correct = true;
  for (const [i, s] of sources.entries()) {
    const got = await gatherVertices(comm, dist, batch.depths[i]!);
    if (comm.rank === 0 && !bfsReference(a, s).every((d, v) => got[v] === d)) correct = false;
  }
  if (comm.rank === 0) {
    const [b, s] = [median(times.batch), median(times.single)];
    process.stdout.write(
      `${JSON.stringify({
        graph: args.graph,
        rows: a.rows,
        entries: a.nnz,
        ranks: comm.size,
        partitioner: method,
        sources: sources.length,
        correct,
        batchMs: Math.round(b * 1e6) / 1e3,
        singleMs: Math.round(s * 1e6) / 1e3,
        singleOverBatch: Math.round((s / b) * 100) / 100,
        batchRounds: batch.levels.length,
        singleRounds,
        batchBytes: counts[0],
        singleBytes: counts[1],
      })}\n`,
    );
    if (!correct) process.exitCode = 1;
  }
}
comm.finalize();
