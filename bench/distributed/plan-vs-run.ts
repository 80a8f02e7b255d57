// The planner's exchange against a run's (issue 26): every rank measures the interconnect, plans
// the workload with planNodes for a cluster of the launcher's ranks (each a node like this one:
// its CPU, priced by this machine's stored calibration; the exchanges on the interconnect just
// measured), then runs it with runDistributed under the plan's weights and partition method,
// `--rounds` times, the partition and layouts kept across the rounds (DistributedLayouts). Rank 0
// prints one JSON line per configuration: each rank's predicted exchange beside the median of what
// its runs spent in the operators' exchanges, counted from the last rank's arrival at each (the
// bytes' time, what the planner predicts) and in all (the wait for the last rank included: load
// imbalance), the slowest rank's of each, and the same for the whole run. Predictions are labelled.
// Run: OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 DYPE_THREADS=1 \
//        mpirun --oversubscribe -np 2 node --import tsx bench/distributed/plan-vs-run.ts \
//        [--graphs delaunay_n16,kron:14] [--workloads gcn,pagerank] [--partitioners rows,metis] [--rounds 7]

import { parseArgs } from 'node:util';
import { metisAvailable } from '../../src/data/partition.js';
import { measureInterconnect } from '../../src/distributed/interconnect.js';
import { initMpi } from '../../src/distributed/mpi.js';
import { type ClusterDescription, planNodes } from '../../src/distributed/nodes.js';
import { runDistributed } from '../../src/distributed/run.js';
import { DistributedLayouts } from '../../src/distributed/layouts.js';
import { median } from '../../src/stats.js';
import { loadGraph } from './graphs.js';
import type { CsrMatrix } from '../../src/data/csr.js';
import type { DenseMatrix } from '../../src/data/dense.js';
import { resolveWorkload } from '../../src/scheduler/problem.js';
import { bindWorkload } from '../../src/workloads/bind.js';

const { values: args } = parseArgs({
  options: {
    graphs: { type: 'string', default: 'delaunay_n16,kron:14' },
    workloads: { type: 'string', default: 'gcn,pagerank' },
    partitioners: { type: 'string', default: 'rows,metis' },
    rounds: { type: 'string', default: '7' },
  },
  strict: true,
});
const rounds = Number(args.rounds);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`plan-vs-run: --rounds must be a positive integer, got ${args.rounds}`);
const list = (s: string): string[] => s.split(',').filter(Boolean);

const comm = initMpi();
const net = await measureInterconnect(comm);
const cluster: ClusterDescription = {
  nodes: [{ name: 'cpu', system: { name: 'cpu-node', devices: [{ name: 'cpu', backend: 'cpu' }] }, count: comm.size }],
  interconnect: net,
};
/** The inputs of `workload` on `graph` a caller passes (the graph and the dense ones, generated once), by name. */
function inputsOf(workload: string, graph: CsrMatrix): Record<string, CsrMatrix | DenseMatrix> {
  const definition = resolveWorkload('plan-vs-run', workload);
  const bound = bindWorkload(definition, graph);
  const out: Record<string, CsrMatrix | DenseMatrix> = {};
  for (const [name, input] of Object.entries(definition.definition.inputs)) {
    if ('from' in input && input.from !== undefined) continue; // derived by the binding (a GCN's normalised A)
    const v = bound.values.find((b) => b.name === name);
    out[name] = input.kind === 'sparse' || !v ? graph : (v.data as DenseMatrix);
  }
  return out;
}
const us = (s: number): number => Math.round(s * 1e7) / 10;
// Three significant digits: a ratio of 0.004 must not print as 0.
const ratio = (a: number, b: number): number => Number((a / b).toPrecision(3));

for (const spec of list(args.graphs)) {
  const graph = await loadGraph(spec);
  // One partition and layout per graph, method and weights, kept across the rounds (as a user repeating runs would).
  const layouts = new DistributedLayouts(comm);
  for (const partitioner of list(args.partitioners) as ('rows' | 'metis')[]) {
    if (partitioner === 'metis' && !metisAvailable().available) continue;
    for (const workload of list(args.workloads)) {
      const plan = await planNodes(workload, graph, cluster, { partitioner });
      const options = { weights: plan.weights, partitioner, layouts };
      // The workload's inputs made once (a GCN's generated features and weights), as a user passes
      // theirs: made again each round, their garbage was collected inside the next rounds.
      const data = inputsOf(workload, graph);
      await runDistributed(comm, workload, data, options); // warm: the level loops and kernels' first calls
      const exchange: number[] = [];
      const transfer: number[] = [];
      const wait: number[] = [];
      const total: number[] = [];
      for (let r = 0; r < rounds; r++) {
        await comm.barrier();
        const run = await runDistributed(comm, workload, data, options);
        exchange.push(run.exchangeSeconds);
        transfer.push(run.transferSeconds ?? Number.NaN);
        wait.push(run.waitSeconds ?? Number.NaN);
        total.push(run.seconds);
      }
      // Every rank's medians, gathered on all by a sum of one-hot slots.
      const columns = [exchange, transfer, wait, total];
      const mine = new Float64Array(columns.length * comm.size);
      columns.forEach((c, j) => {
        mine[j * comm.size + comm.rank] = median(c);
      });
      await comm.allreduce(mine, 'sum');
      if (comm.rank !== 0) continue;
      const [measuredExchange, measuredTransfer, measuredWait, measuredTotal] = columns.map((_, j) =>
        Array.from(mine.subarray(j * comm.size, (j + 1) * comm.size)),
      ) as [number[], number[], number[], number[]];
      const predictedExchange = plan.ranks.map((r) => r.exchangeSeconds);
      const slowest = (v: readonly number[]): number => Math.max(...v);
      process.stdout.write(
        `${JSON.stringify({
          graph: spec,
          workload,
          ranks: comm.size,
          partitioner,
          rounds,
          perRankUs: plan.ranks.map((r, i) => ({
            rank: r.rank,
            share: Math.round(r.share * 1000) / 1000,
            exchangePredicted: us(predictedExchange[i]!),
            exchangeMeasured: us(measuredTransfer[i]!),
            exchangeWithWait: us(measuredExchange[i]!),
            waitForLastRank: us(measuredWait[i]!),
            totalPredicted: us(r.seconds),
            totalMeasured: us(measuredTotal[i]!),
          })),
          slowestExchangeUs: {
            predicted: us(slowest(predictedExchange)),
            measured: us(slowest(measuredTransfer)),
            withWait: us(slowest(measuredExchange)),
            wait: us(slowest(measuredWait)),
          },
          exchangePredictedOverMeasured: ratio(slowest(predictedExchange), slowest(measuredTransfer)),
          slowestTotalUs: { predicted: us(plan.seconds), measured: us(slowest(measuredTotal)) },
          totalPredictedOverMeasured: ratio(plan.seconds, slowest(measuredTotal)),
          interconnect: net.source,
          labels:
            'predicted: planNodes (model, not probed); measured: runDistributed, medians of the rounds; exchange measured from the last rank arrival (withWait: from each rank own call; wait: the difference, load imbalance)',
        })}\n`,
      );
    }
  }
}
comm.finalize();
