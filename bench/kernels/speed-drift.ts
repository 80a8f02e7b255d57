// How far this machine's own speed moves over seconds: one fixed, single-threaded CPU kernel (a
// multi-source BFS small enough to stay in cache and run on one thread) timed in batches spread
// over a stretch of wall time. The spread inside a batch is what repeats and rounds can average
// away; the spread between batches is not: a planner's probes and the oracle that judges its
// pick run seconds apart, and where the CPU shares an operator with a simulated device (whose
// time does not follow the machine) the best share moves with the machine's speed.
// Run: node --import tsx bench/kernels/speed-drift.ts [--seconds 20] [--calls 30]

import { parseArgs } from 'node:util';
import { msbfs } from '../../src/kernels/msbfs.js';
import { generate } from '../../src/generators/index.js';
import { quantile } from '../../src/stats.js';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '20' },
    calls: { type: 'string', default: '30' },
  },
  strict: true,
});
const seconds = Number(args.seconds);
const calls = Number(args.calls);
if (!(seconds > 0) || !(calls >= 4)) throw new Error(`speed-drift: --seconds must be > 0 and --calls >= 4, got ${args.seconds} and ${args.calls}`);

// A 2D mesh of 4,096 vertices: one thread (too small to split), in cache, a few dozen levels.
const g = generate({ kind: 'grid', rows: 64, cols: 64, deleteFraction: 0, seed: 1 });
const sources = Int32Array.from({ length: 32 }, (_, i) => (i * 997) % g.rows);
for (let i = 0; i < 5; i++) await msbfs(g, sources);

console.log(`multi-source BFS (32 sources) on a 64x64 mesh, batches of ${calls} calls spread over ${seconds} s; µs`);
const medians: number[] = [];
const t0 = performance.now();
let batch = 0;
while (performance.now() - t0 < seconds * 1000) {
  const xs: number[] = [];
  for (let i = 0; i < calls; i++) {
    const s = performance.now();
    await msbfs(g, sources);
    xs.push((performance.now() - s) * 1000);
  }
  const med = quantile(xs, 0.5);
  medians.push(med);
  const iqr = quantile(xs, 0.75) - quantile(xs, 0.25);
  console.log(
    `batch ${String(batch++).padStart(3)} at ${((performance.now() - t0) / 1000).toFixed(1).padStart(5)} s: median ${med.toFixed(0).padStart(6)}  within-batch IQR ${((100 * iqr) / med).toFixed(1)}%`,
  );
  await new Promise((r) => setTimeout(r, 500));
}
const lo = Math.min(...medians);
const hi = Math.max(...medians);
console.log(
  `batch medians: lowest ${lo.toFixed(0)}, median ${quantile(medians, 0.5).toFixed(0)}, highest ${hi.toFixed(0)} µs; highest / lowest ${(hi / lo).toFixed(2)}x over ${medians.length} batches`,
);
