// Predicted scaling curves of a distributed SpMM and BFS from 1 to 256 nodes (issue 26): each
// graph's one-node rate is measured here (the median of repeated SpMMs, and of dype's BFS from
// the sources over the entries each scans, on this machine, all its cores), and the exchanges are
// priced on a declared network (by default 100 Gb/s with 1.5 us per message, an InfiniBand EDR
// class link), since this machine has no network to measure. Every figure printed is a prediction
// (src/distributed/scaling.ts and bfs-scaling.ts say what they leave out).
// Run: node --import tsx bench/distributed/scaling-curve.ts [--graphs delaunay_n16,kron:16] [--k 32]
//      [--nodes 1,2,4,...,256] [--latency-us 1.5] [--gbps 100] [--bfs-sources 2] [--no-spmm]

import { parseArgs } from 'node:util';
import { DenseMatrix } from '../../src/data/dense.js';
import { metisAvailable } from '../../src/data/partition.js';
import type { Interconnect } from '../../src/distributed/interconnect.js';
import { predictScaling } from '../../src/distributed/scaling.js';
import { bfsWork, predictBfsScaling } from '../../src/distributed/bfs-scaling.js';
import { bfs } from '../../src/kernels/bfs.js';
import { spmmTimed } from '../../src/kernels/spmm.js';
import { median } from '../../src/stats.js';
import { loadGraph } from './graphs.js';

const { values: args } = parseArgs({
  options: {
    graphs: { type: 'string', default: 'delaunay_n16,luxembourg_osm,soc-Slashdot0902,kron:18' },
    k: { type: 'string', default: '32' },
    nodes: { type: 'string', default: '1,2,4,8,16,32,64,128,256' },
    'latency-us': { type: 'string', default: '1.5' },
    gbps: { type: 'string', default: '100' },
    'bfs-sources': { type: 'string', default: '2' },
    'no-spmm': { type: 'boolean', default: false },
  },
  strict: true,
});
const k = Number(args.k);
const nodes = args.nodes.split(',').map(Number);
const latency = Number(args['latency-us']) * 1e-6;
const gbps = Number(args.gbps);
if (!(latency >= 0) || !(gbps > 0)) throw new Error(`scaling-curve: --latency-us must be >= 0 and --gbps > 0, got ${args['latency-us']} and ${args.gbps}`);
const net: Interconnect = {
  latencySeconds: latency,
  bytesPerSecond: (gbps * 1e9) / 8,
  source: `a declared network of ${gbps} Gb/s and ${(latency * 1e6).toFixed(1)} us per message`,
};
const methods = metisAvailable().available ? (['rows', 'metis'] as const) : (['rows'] as const);
if (methods.length === 1) console.log(`METIS is not in this build (${metisAvailable().reason}): row blocks only`);

for (const spec of args.graphs.split(',')) {
  const a = await loadGraph(spec);
  if (!args['no-spmm']) await spmmCurves(spec, a);
  await bfsCurves(spec, a);
}

async function spmmCurves(spec: string, a: Awaited<ReturnType<typeof loadGraph>>): Promise<void> {
  const x = new DenseMatrix(
    a.cols,
    k,
    Float32Array.from({ length: a.cols * k }, (_, i) => ((i * 7) % 13) / 13),
  );
  const out = DenseMatrix.zeros(a.rows, k, 'f32');
  for (let i = 0; i < 3; i++) await spmmTimed('scaling-curve', a, x, { out });
  const times: number[] = [];
  for (let i = 0; i < 15; i++) times.push((await spmmTimed('scaling-curve', a, x, { out })).seconds);
  const rate = median(times) / (a.nnz * k);
  console.log(`\n${spec}: ${a.rows} rows, ${a.nnz} entries, k = ${k}; one node (this machine) ${(median(times) * 1e3).toFixed(2)} ms measured`);
  for (const method of methods) {
    const p = predictScaling(a, { nodes, k, method, secondsPerEntryColumn: rate, interconnect: net });
    console.log(`  ${p.source}`);
    console.log('  nodes | predicted step | kernel | exchange | speedup | efficiency | imbalance | most halo rows');
    for (const q of p.points)
      console.log(
        `  ${String(q.nodes).padStart(5)} | ${(q.seconds * 1e3).toFixed(3).padStart(10)} ms | ${(q.kernelSeconds * 1e3).toFixed(3)} ms | ${(q.exchangeSeconds * 1e3).toFixed(3)} ms | ${q.speedup.toFixed(1).padStart(6)}x | ${(100 * q.efficiency).toFixed(0).padStart(4)}% | ${q.imbalance.toFixed(2)} | ${q.maxHaloRows}`,
      );
  }
}

/** BFS from the graph's first `--bfs-sources` vertices with edges, spread over its rows. */
async function bfsCurves(spec: string, a: Awaited<ReturnType<typeof loadGraph>>): Promise<void> {
  const count = Number(args['bfs-sources']);
  const sources: number[] = [];
  for (let i = 0; i < a.rows && sources.length < count; i += Math.max(1, Math.floor(a.rows / (4 * count))))
    if (a.rowStart(i + 1) > a.rowStart(i)) sources.push(i);
  const rates: number[] = [];
  for (const s of sources) {
    for (let i = 0; i < 2; i++) await bfs(a, s);
    const times: number[] = [];
    for (let i = 0; i < 9; i++) times.push((await bfs(a, s)).seconds);
    rates.push(median(times) / bfsWork(a, s));
  }
  const rate = median(rates);
  console.log(`\n${spec}: BFS from ${sources.join(', ')}; one node (this machine) ${(rate * 1e9).toFixed(2)} ns per scanned entry measured`);
  for (const method of methods) {
    const p = predictBfsScaling(a, { nodes, sources, method, secondsPerEntry: rate, interconnect: net });
    console.log(`  ${p.source}`);
    console.log('  nodes | predicted search | compute | exchange | speedup | efficiency | levels | bytes sent');
    for (const q of p.points)
      console.log(
        `  ${String(q.nodes).padStart(5)} | ${(q.seconds * 1e3).toFixed(3).padStart(10)} ms | ${(q.computeSeconds * 1e3).toFixed(3)} ms | ${(q.exchangeSeconds * 1e3).toFixed(3)} ms | ${q.speedup.toFixed(1).padStart(6)}x | ${(100 * q.efficiency).toFixed(0).padStart(4)}% | ${q.levels.toFixed(0)} | ${q.bytes.toFixed(0)}`,
      );
  }
}
