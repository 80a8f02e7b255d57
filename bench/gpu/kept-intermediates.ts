// A GCN forward with every operator on a real GPU, on a Kronecker graph: the bytes copied each
// way (RunResult.deviceCopies) against the inputs', the output's and the intermediates' sizes,
// and the run's wall time. With intermediates kept on the card only the output comes home and
// each input goes in once; were every result copied home and back, the intermediates would move
// twice more. Needs a CUDA device.
//
//   node --import tsx bench/gpu/kept-intermediates.ts [--scale 20] [--repeats 3]

import { parseArgs } from 'node:util';
import { cudaProbe } from '../../src/devices/backends/gpu.js';
import { buildSystem } from '../../src/devices/system.js';
import { runPlan } from '../../src/executor/run.js';
import { generate } from '../../src/generators/index.js';
import { schedule } from '../../src/scheduler/schedule.js';
import type { Choice } from '../../src/scheduler/space.js';

const { values: args } = parseArgs({ options: { scale: { type: 'string', default: '20' }, repeats: { type: 'string', default: '3' } } });
const probe = cudaProbe();
if (!probe.available) {
  console.error(`kept-intermediates: no CUDA device (${probe.reason})`);
  process.exit(2);
}
const scale = Number(args.scale);
const system = buildSystem({
  name: 'cpu-cuda',
  devices: [
    { name: 'cpu', backend: 'cpu' },
    { name: 'gpu', backend: 'gpu' },
  ],
  links: [{ between: ['host', 'gpu'], profile: 'cuda-staged' }],
});
const graph = generate({ kind: 'kronecker', scale, edgeFactor: 16, seed: 1 });
const first = await schedule('gcn', graph, { system, policy: 'min-time', probe: false });
const gpu = system.devices.findIndex((d) => d.name === 'gpu');
const genome = Int32Array.from(first.problem.choices, (cs: readonly Choice[]) => cs.findIndex((c) => c.parts.length === 1 && c.parts[0]!.device === gpu));
const plan = { ...first, chosen: { ...first.chosen, genome } };
const bound = plan.problem.bound;
const sizeOf = (v: unknown): number => {
  if (ArrayBuffer.isView(v)) return v.byteLength;
  const { data, values } = v as { data?: ArrayBufferView; values?: ArrayBufferView };
  return (data?.byteLength ?? 0) + (values?.byteLength ?? 0);
};
const MB = (b: number): string => `${(b / 1e6).toFixed(1)} MB`;
const inputs = bound.values.filter((v) => v.producer < 0).reduce((s, v) => s + sizeOf(v.data), 0) + graph.colIdx.byteLength;
console.log(`GCN on Kronecker ${scale} (${graph.rows} vertices, ${graph.nnz} edges), every operator on ${probe.name}`);
console.log(`inputs ${MB(inputs)} (the graph's columns and values, features, weights)`);
for (let r = 0; r < Number(args.repeats); r++) {
  const result = await runPlan(plan, { replan: false, bfsLevels: false });
  const output = bound.outputs.reduce((s, v) => s + sizeOf(result.outputs[bound.values[v]!.name]), 0);
  console.log(
    `run ${r + 1}: to the card ${MB(result.deviceCopies.toDeviceBytes)}, home ${MB(result.deviceCopies.toHostBytes)} (output ${MB(output)}), ` +
      `wall ${(result.wallSeconds * 1e3).toFixed(1)} ms, kernels ${(result.pieces.reduce((s, p) => s + p.observedSeconds, 0) * 1e3).toFixed(2)} ms`,
  );
  if (r === 0) for (const p of result.pieces) console.log(`  ${p.op}: in ${MB(p.copies?.toDeviceBytes ?? 0)}, out ${MB(p.copies?.toHostBytes ?? 0)}`);
}
