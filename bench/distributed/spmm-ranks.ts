// Distributed SpMM under MPI: every rank builds its share of the matrix (row-block or METIS
// partition), multiplies its rows with the halo exchanged by alltoallv while the interior rows
// run, and the gathered result is checked against the single-process reference on every rank
// (summation bound). Rank 0 prints one JSON line per configuration: correctness, the medians over
// rounds of each phase (the slowest rank's), the bytes sent in all, and the halo exchange timed
// alone beside its prediction from the halos and the interconnect measured at the start.
// Run: OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
//        mpirun --oversubscribe -np 4 node --import tsx bench/distributed/spmm-ranks.ts \
//        [--graph kron:14|grid:300x300|bcsstk13] [--partitioners rows,metis] [--k 8,32] [--precisions f32,f64] [--rounds 5]

import { parseArgs } from 'node:util';
import { loadGraph, partitionsOf } from './graphs.js';
import type { CsrMatrix } from '../../src/data/csr.js';
import { DenseMatrix } from '../../src/data/dense.js';
import { partitionStats } from '../../src/data/partition.js';
import { DistributedCsr, scaled } from '../../src/distributed/halo.js';
import { measureInterconnect, predictExchange } from '../../src/distributed/interconnect.js';
import { initMpi } from '../../src/distributed/mpi.js';
import { gatherRows } from '../../src/distributed/gather.js';
import { distributedSpmm, localRowsOf, type DistributedTimes } from '../../src/distributed/spmm.js';
import { denseFeatures } from '../../src/generators/index.js';
import { spmmAbsoluteSums, spmmReference } from '../../src/kernels/reference.js';
import { median } from '../../src/stats.js';

const { values: args } = parseArgs({
  options: {
    graph: { type: 'string', default: 'kron:12' },
    partitioners: { type: 'string', default: 'rows,metis' },
    k: { type: 'string', default: '8' },
    precisions: { type: 'string', default: 'f32,f64' },
    rounds: { type: 'string', default: '5' },
  },
  strict: true,
});

const comm = initMpi();

/** Index of the first element outside the summation bound of the reference, or -1. */
function mismatch(a: CsrMatrix, x: Float32Array | Float64Array, k: number, y: Float32Array | Float64Array): number {
  const ref = spmmReference(a, x, k);
  const sums = spmmAbsoluteSums(a, x, k);
  const u = x instanceof Float32Array ? 2 ** -24 : 2 ** -53;
  for (let r = 0; r < a.rows; r++)
    for (let j = 0; j < k; j++) {
      const i = r * k + j;
      if (!(Math.abs(y[i]! - ref[i]!) <= (a.rowLength(r) + 2) * u * sums[i]!)) return i;
    }
  return -1;
}

/** The halo exchange alone (no kernel beside it), timed as the slowest rank's median over rounds. */
async function haloExchangeSeconds(dist: DistributedCsr, k: number, precision: 'f32' | 'f64', rounds: number): Promise<number> {
  const make = (n: number) => (precision === 'f32' ? new Float32Array(n) : new Float64Array(n));
  const send = scaled('bench', dist.send, k);
  const recv = scaled('bench', dist.recv, k);
  const sendBuf = make(dist.sendRows.length * k);
  const recvBuf = make(dist.halo.length * k);
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    await comm.barrier();
    const t0 = performance.now();
    await comm.alltoallv(sendBuf, send.counts, send.displs, recvBuf, recv.counts, recv.displs);
    const slowest = Float64Array.of((performance.now() - t0) / 1000);
    await comm.allreduce(slowest, 'max');
    times.push(slowest[0]!);
  }
  return median(times);
}

const a = await loadGraph(args.graph);
const net = await measureInterconnect(comm);
const list = (s: string): string[] => s.split(',').filter(Boolean);
for (const [method, partition] of partitionsOf(args.partitioners, a, comm.size)) {
  const dist = await DistributedCsr.build(comm, a, partition);
  for (const precision of list(args.precisions) as ('f32' | 'f64')[])
    for (const k of list(args.k).map(Number)) {
      const x = denseFeatures({ rows: a.cols, cols: k, seed: 3, precision });
      // X written where the product reads it (no copy next to the halo), Y into one reused matrix.
      const xLocal = dist.inputBuffer(k, precision);
      xLocal.data.set(localRowsOf(dist, x).data);
      const out = DenseMatrix.zeros(dist.localRows, k, precision);
      const rounds: DistributedTimes[] = [];
      let wrong = -1;
      let sent = 0;
      for (let r = 0; r < Number(args.rounds); r++) {
        await comm.barrier();
        const { y, times, bytesSent } = await distributedSpmm(comm, dist, xLocal, { out });
        rounds.push(times);
        sent = bytesSent;
        if (r === 0) wrong = mismatch(a, x.data, k, (await gatherRows(comm, dist, y)).data);
      }
      // The slowest rank's median of each phase, the bytes of all, and whether any rank was wrong.
      const phases = ['total', 'exchange', 'interior', 'overlapped', 'boundary'] as const;
      const figures = Float64Array.from(phases.map((p) => median(rounds.map((t) => t[p]))));
      await comm.allreduce(figures, 'max');
      const totals = Float64Array.from([sent, wrong >= 0 ? 1 : 0]);
      await comm.allreduce(totals, 'sum');
      // The exchange predicted from the halos and the measured interconnect, against the exchange timed alone.
      const predicted = Float64Array.of(predictExchange(dist.send, dist.recv, k * (precision === 'f32' ? 4 : 8), comm.rank, net));
      await comm.allreduce(predicted, 'max');
      const alone = await haloExchangeSeconds(dist, k, precision, Number(args.rounds));
      if (comm.rank === 0) {
        const stats = partitionStats(a, partition);
        const ms = (v: number): number => Math.round(v * 1e6) / 1e3;
        process.stdout.write(
          `${JSON.stringify({
            graph: args.graph,
            rows: a.rows,
            entries: a.nnz,
            ranks: comm.size,
            threadLevel: comm.threadLevel,
            partitioner: method,
            precision,
            k,
            correct: totals[1] === 0,
            edgeCut: stats.edgeCut,
            haloRows: stats.haloTotal,
            bytesSent: totals[0],
            ms: Object.fromEntries(phases.map((p, i) => [p, ms(figures[i]!)])),
            exchangeAloneMs: ms(alone),
            exchangePredictedMs: ms(predicted[0]!),
            predictedOverMeasured: Math.round((predicted[0]! / alone) * 100) / 100,
            interconnect: { latencyUs: Math.round(net.latencySeconds * 1e7) / 10, gbPerSecond: Math.round(net.bytesPerSecond / 1e7) / 100 },
          })}\n`,
        );
      }
      if (wrong >= 0) process.exitCode = 1;
    }
}
comm.finalize();
