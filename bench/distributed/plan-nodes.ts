// Shares of unequal nodes (issue 26, planning with a node dimension): for a declared cluster of one
// node with a simulated H100 beside its CPU and three CPU-only nodes like this machine, planNodes
// plans each kind alone on the whole input by the cost model, gives each rank its share of the
// rows for the slowest rank's compute plus halo exchange to be as short as it can be, and prices
// the choices of which kinds take part. Every figure printed is a prediction (the CPU at this
// machine's calibration, the GPU from its specification, the network as declared).
// Run: node --import tsx bench/distributed/plan-nodes.ts [--graphs delaunay_n16,kron:16]
//      [--workload gcn] [--cpu-nodes 3] [--latency-us 1.5] [--gbps 100]

import { parseArgs } from 'node:util';
import { metisAvailable } from '../../src/data/partition.js';
import type { Interconnect } from '../../src/distributed/interconnect.js';
import { type ClusterDescription, planNodes } from '../../src/distributed/nodes.js';
import type { SystemDescription } from '../../src/devices/system.js';
import { formatSeconds } from '../../src/units.js';
import { loadGraph } from './graphs.js';

const { values: args } = parseArgs({
  options: {
    graphs: { type: 'string', default: 'delaunay_n16,luxembourg_osm,kron:16' },
    workload: { type: 'string', default: 'gcn' },
    'cpu-nodes': { type: 'string', default: '3' },
    'latency-us': { type: 'string', default: '1.5' },
    gbps: { type: 'string', default: '100' },
  },
  strict: true,
});
const cpuNodes = Number(args['cpu-nodes']);
const latency = Number(args['latency-us']) * 1e-6;
const gbps = Number(args.gbps);
if (!Number.isInteger(cpuNodes) || cpuNodes < 1 || !(latency >= 0) || !(gbps > 0))
  throw new Error(`plan-nodes: --cpu-nodes must be a positive integer, --latency-us >= 0 and --gbps > 0`);
const interconnect: Interconnect = {
  latencySeconds: latency,
  bytesPerSecond: (gbps * 1e9) / 8,
  source: `a declared network of ${gbps} Gb/s and ${args['latency-us']} us per message`,
};
const gpuNode: SystemDescription = {
  name: 'gpu-node',
  devices: [
    { name: 'cpu', backend: 'cpu' },
    { name: 'gpu', backend: 'gpu-sim', profile: 'h100-sxm' },
  ],
  links: [{ between: ['host', 'gpu'], profile: 'pcie-gen5-x16' }],
};
const cpuNode: SystemDescription = { name: 'cpu-node', devices: [{ name: 'cpu', backend: 'cpu' }] };
const cluster: ClusterDescription = {
  nodes: [
    { name: 'gpu', system: gpuNode },
    { name: 'cpu', system: cpuNode, count: cpuNodes },
  ],
  interconnect,
};
for (const spec of args.graphs.split(',')) {
  const graph = await loadGraph(spec);
  for (const partitioner of metisAvailable().available ? (['rows', 'metis'] as const) : (['rows'] as const)) {
    const plan = await planNodes(args.workload, graph, cluster, { partitioner });
    console.log(`\n${args.workload} on ${spec}, ${partitioner} (${plan.source})`);
    for (const line of plan.explanation) console.log(`  ${line}`);
    for (const r of plan.ranks)
      console.log(
        `  rank ${r.rank} ${r.node}: ${(100 * r.share).toFixed(1)}% of the work, ${formatSeconds(r.computeSeconds)} compute + ${formatSeconds(r.exchangeSeconds)} exchange`,
      );
    console.log(
      `  front: ${plan.front.map((p) => `${p.nodes.join(' + ')} ${formatSeconds(p.seconds)} ${(p.joules * 1e3).toFixed(2)} mJ (modelled)`).join('; ')}`,
    );
  }
}
