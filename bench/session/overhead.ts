// Issue 23: the imperative API's cost per call — checking the operands' kinds and shapes, making
// the handle and recording the call — without planning or kernels (the window is never reached,
// and nothing is awaited). Each task records CALLS calls in a fresh session; the per-call figure
// is (task - an empty session's creation) / CALLS. Medians over rounds of tinybench's medians,
// with the spread over rounds.
// Run: node --expose-gc --import tsx bench/session/overhead.ts [--quick]

import { parseArgs } from 'node:util';
import { Bench } from 'tinybench';
import { CostModel } from '../../src/cost/model.js';
import { buildSystem } from '../../src/devices/system.js';
import { denseFeatures, kroneckerGraph } from '../../src/generators/index.js';
import { session } from '../../src/session/session.js';
import { median } from '../../src/stats.js';

const { values: args } = parseArgs({ options: { quick: { type: 'boolean', default: false } }, strict: true });
const CALLS = 1000;
const ROUNDS = args.quick ? 5 : 11;

const system = buildSystem({ name: 'cpu-only', devices: [{ name: 'cpu', backend: 'cpu' }] }, 'session-overhead');
const model = new CostModel(system);
const graph = kroneckerGraph({ scale: 10, seed: 1 });
const x = denseFeatures({ rows: graph.cols, cols: 16, seed: 1 });
const w = denseFeatures({ rows: 16, cols: 16, seed: 2 });
const options = { system, model, window: 1e9 };

const tasks: [string, () => void][] = [
  ['session() alone (subtracted)', () => void session(options)],
  // A GCN-like layer repeated: gemm, spmm, relu, each reading the previous handle.
  [
    'gemm -> spmm -> relu chains',
    () => {
      const s = session(options);
      let h = s.relu(x);
      for (let i = 1; i < CALLS; i += 3) h = s.relu(s.spmm(graph, s.gemm(h, w)));
    },
  ],
  [
    'independent relu on data',
    () => {
      const s = session(options);
      for (let i = 0; i < CALLS; i++) s.relu(x);
    },
  ],
];

for (const [, run] of tasks) for (let i = 0; i < 50; i++) run(); // warm the JIT
const latencies = new Map<string, number[]>();
for (let round = 0; round < ROUNDS; round++) {
  const bench = new Bench({ time: args.quick ? 200 : 500, warmupTime: 100 });
  for (const [name, run] of round % 2 ? [...tasks].reverse() : tasks) bench.add(name, run);
  globalThis.gc?.();
  await bench.run();
  for (const [name] of tasks) {
    const r = bench.getTask(name)?.result;
    if (r === undefined || r.state !== 'completed') throw new Error(`${name}: ${r?.state ?? 'missing'}`);
    latencies.set(name, [...(latencies.get(name) ?? []), r.latency.p50]);
  }
}
const base = median(latencies.get(tasks[0]![0])!);
console.log(
  `Session per-call overhead: ${CALLS} calls per task, ${ROUNDS} rounds (medians over rounds of tinybench's per-task medians); goal <= 10 us per call`,
);
console.log('| calls | per call, median (us) | spread over rounds, min - max (us) |');
console.log('|---|---|---|');
for (const [name] of tasks.slice(1)) {
  const perCall = latencies
    .get(name)!
    .map((ms) => ((ms - base) * 1e3) / CALLS)
    .sort((a, b) => a - b);
  console.log(`| ${name} | ${median(perCall).toFixed(2)} | ${perCall[0]!.toFixed(2)} - ${perCall[perCall.length - 1]!.toFixed(2)} |`);
}
await system.dispose();
