// `dype run --distributed`, started by an MPI launcher (`mpirun -np 4 npx dype run gcn --data
// big.mtx --distributed`): every rank loads the same input, the workload runs across the ranks
// (src/distributed/run.ts), and rank 0 prints the report: the partition, the slowest rank's time,
// the bytes exchanged, and with --check whether the outputs equal the single-process reference.

import type { CsrMatrix } from '../../data/csr.js';
import { DenseMatrix } from '../../data/dense.js';
import { partitionStats } from '../../data/partition.js';
import { initMpi } from '../../distributed/mpi.js';
import { runDistributed } from '../../distributed/run.js';
import { referenceValues } from '../../workloads/reference.js';
import { relativeDeviation } from '../../stats.js';
import type { FlagValues } from '../parse.js';
import { planArgs } from '../plan-args.js';
import { formatCount, formatSeconds } from '../table.js';
import { UsageError } from '../usage-error.js';

export const DISTRIBUTED_FLAGS_HELP = `Distributed (under an MPI launcher: mpirun -np N npx dype run ... --distributed):
  --distributed            run across the launcher's ranks, each owning a part of the graph's
                           vertices; rank 0 prints the report (no chart or trace yet)
  --partitioner NAME       metis (default where the build has METIS) or rows (contiguous blocks)
  --rank-device NAME       run each rank's sparse products on its node's device NAME (the node's
                           detected system); a rank whose node has none uses its CPU kernels
  --check                  compare the outputs with the single-process reference on rank 0`;

/** The largest difference from the reference over the largest reference magnitude (0: equal; depths exact or not). */
function deviation(got: unknown, want: unknown): number {
  if (want instanceof Int32Array) return got instanceof Int32Array && got.every((d, i) => d === want[i]) ? 0 : Infinity;
  if (!(want instanceof DenseMatrix) || !(got instanceof DenseMatrix)) return Infinity;
  return relativeDeviation(got.data, want.data);
}

export async function distributedRun(values: FlagValues, positionals: readonly string[], out: (s: string) => void): Promise<void> {
  for (const flag of ['server', 'out', 'trace', 'no-replan', 'replan-threshold'])
    if (values[flag] !== undefined) throw new UsageError(`run: --${flag} does not apply to --distributed runs`);
  const partitioner = values['partitioner'];
  if (partitioner !== undefined && partitioner !== 'rows' && partitioner !== 'metis')
    throw new UsageError(`run: --partitioner must be rows or metis, got ${JSON.stringify(partitioner)}`);
  const rankDevice = values['rank-device'];
  if (rankDevice !== undefined && (typeof rankDevice !== 'string' || rankDevice === ''))
    throw new UsageError(`run: --rank-device needs a device name, got ${JSON.stringify(rankDevice)}`);
  const args = await planArgs('run', values, positionals);
  const comm = initMpi();
  // This rank's node: the device of that name in its own detected system, if it has one.
  const device = rankDevice !== undefined ? args.system.devices.find((d) => d.name === rankDevice) : undefined;
  let r: Awaited<ReturnType<typeof runDistributed>>;
  try {
    r = await runDistributed(comm, args.workload, args.input.matrix, {
      ...(args.options.params ? { params: args.options.params } : {}),
      ...(args.options.seed !== undefined ? { seed: args.options.seed } : {}),
      ...(partitioner !== undefined ? { partitioner: partitioner as 'rows' | 'metis' } : {}),
      ...(device ? { device } : {}),
    });
  } finally {
    await args.system.dispose();
  }
  const onDevice = Float64Array.of(r.products.some((p) => p.device !== 'host') ? 1 : 0);
  await comm.allreduce(onDevice, 'sum');
  const slowest = Float64Array.of(r.seconds);
  await comm.allreduce(slowest, 'max');
  const bytes = Float64Array.of(r.bytesSent);
  await comm.allreduce(bytes, 'sum');
  // The most any rank spent in the exchanges, and of that split (exchange-timing.ts) the most any
  // rank spent after the last rank's arrival and the most any waited for it (NaN: not stamped).
  const exchange = Float64Array.of(r.exchangeSeconds, r.transferSeconds ?? Number.NaN, r.waitSeconds ?? Number.NaN);
  await comm.allreduce(exchange, 'max');
  if (comm.rank === 0) {
    const graph = r.bound.values.find((v) => v.kind === 'sparse')!.data as CsrMatrix;
    const stats = partitionStats(graph, r.partition);
    const ref = values['check'] ? referenceValues(r.bound) : undefined;
    const checks = r.bound.outputs.map((o) => {
      const name = r.bound.values[o]!.name;
      return { name, deviation: ref ? deviation(r.outputs[name], ref[o]) : undefined };
    });
    const report = {
      workload: args.workloadLabel,
      input: args.input.label,
      ranks: comm.size,
      mpi: comm.library,
      partitioner: r.partition.method,
      edgeCut: stats.edgeCut,
      haloRows: stats.haloTotal,
      imbalance: stats.imbalance,
      seconds: slowest[0]!,
      exchangeSeconds: exchange[0]!,
      transferSeconds: Number.isFinite(exchange[1]) ? exchange[1]! : null,
      waitSeconds: Number.isFinite(exchange[2]) ? exchange[2]! : null,
      bytesSent: bytes[0]!,
      rankDevice: rankDevice ?? null,
      ranksOnDevice: onDevice[0]!,
      outputs: checks,
    };
    if (values['json']) out(JSON.stringify(report, null, 2));
    else {
      out(`dype run --distributed: ${report.workload} on ${report.input}, ${comm.size} ranks (${comm.library})`);
      out(
        `Partition (${report.partitioner}): ${formatCount(stats.edgeCut)} entries cut, ${formatCount(stats.haloTotal)} halo rows, imbalance ${stats.imbalance.toFixed(2)}`,
      );
      out(
        `Operators: ${formatSeconds(report.seconds)} on the slowest rank (measured), ${formatCount(report.bytesSent)} bytes exchanged, at most ${formatSeconds(report.exchangeSeconds)} of a rank's time in the exchanges${
          report.transferSeconds !== null && report.waitSeconds !== null
            ? ` (from the last rank's arrival at most ${formatSeconds(report.transferSeconds)}; waiting for it at most ${formatSeconds(report.waitSeconds)}: load imbalance)`
            : ''
        }`,
      );
      if (rankDevice !== undefined)
        out(
          `Sparse products on ${rankDevice} on ${report.ranksOnDevice} of ${comm.size} ranks (the others on their CPU kernels); a simulated device's seconds are simulated, the slowest rank's time above is the host's clock`,
        );
      for (const c of checks)
        out(
          c.deviation === undefined
            ? `Output ${c.name}: gathered on every rank (--check compares it with the single-process reference)`
            : `Output ${c.name}: ${c.deviation === 0 ? 'equal to' : c.deviation <= 1e-5 ? `within ${c.deviation.toExponential(1)} (relative) of` : `DIFFERENT from (${c.deviation})`} the single-process reference`,
        );
    }
    if (checks.some((c) => c.deviation !== undefined && !(c.deviation <= 1e-5))) process.exitCode = 1;
  }
  comm.finalize();
}
