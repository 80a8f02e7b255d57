// How far this machine's own speed moves over seconds, and whether one kernel's speed can stand
// for another's. Three fixed CPU kernels are timed in interleaved batches spread over a stretch
// of wall time: a multi-source BFS small enough to stay in cache and run on one thread (the
// reference), and two SpMMs on a shared dataset (one large enough to use both threads, one small).
// The spread inside a batch is what repeats and rounds can average away; the spread between
// batches is not: a planner's probes and the oracle that judges its pick run seconds apart, and
// where the CPU shares an operator with a simulated device (whose time does not follow the
// machine) the best share moves with the machine's speed. If each kernel's time over the
// reference's held still while both moved, an oracle could time the reference in every round and
// judge CPU pieces at one pinned speed; the "ratio" columns say whether it does.
// Run: node --import tsx bench/kernels/speed-drift.ts [--seconds 20] [--calls 15]

import { parseArgs } from 'node:util';
import { DenseMatrix } from '../../src/data/dense.js';
import { msbfs } from '../../src/kernels/msbfs.js';
import { spmmTimed } from '../../src/kernels/spmm.js';
import { generate } from '../../src/generators/index.js';
import { quantile } from '../../src/stats.js';
import { loadDataset } from '../common/datasets.js';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '20' },
    calls: { type: 'string', default: '15' },
  },
  strict: true,
});
const seconds = Number(args.seconds);
const calls = Number(args.calls);
if (!(seconds > 0) || !(calls >= 4)) throw new Error(`speed-drift: --seconds must be > 0 and --calls >= 4, got ${args.seconds} and ${args.calls}`);

// The reference: a 2D mesh of 4,096 vertices, one thread (too small to split), in cache.
const g = generate({ kind: 'grid', rows: 64, cols: 64, deleteFraction: 0, seed: 1 });
const sources = Int32Array.from({ length: 32 }, (_, i) => (i * 997) % g.rows);
const micros = async (run: () => Promise<unknown>): Promise<number> => {
  const s = performance.now();
  await run();
  return (performance.now() - s) * 1000;
};
const kernels: { name: string; run: () => Promise<number> }[] = [{ name: 'msbfs mesh', run: () => micros(() => msbfs(g, sources)) }];
for (const [name, k] of [
  ['facebook_combined', 64],
  ['cora', 32],
] as const) {
  const a = (await loadDataset(name, 'f32')).matrix;
  if (!a) continue; // without the shared datasets only the reference runs
  const x = new DenseMatrix(
    a.cols,
    k,
    Float32Array.from({ length: a.cols * k }, (_, i) => (i % 7) * 0.1),
  );
  const out = DenseMatrix.zeros(a.rows, k, 'f32');
  kernels.push({ name: `spmm ${name} k=${k}`, run: async () => (await spmmTimed('speed-drift', a, x, { out })).seconds * 1e6 });
}
for (let i = 0; i < 5; i++) for (const k of kernels) await k.run();

console.log(`${kernels.map((k) => k.name).join(', ')}: interleaved batches of ${calls} calls each, spread over ${seconds} s; batch medians in µs`);
const medians: number[][] = [];
const t0 = performance.now();
while (performance.now() - t0 < seconds * 1000) {
  const xs = kernels.map(() => [] as number[]);
  for (let i = 0; i < calls; i++) for (const [j, k] of kernels.entries()) xs[j]!.push(await k.run());
  const med = xs.map((v) => quantile(v, 0.5));
  medians.push(med);
  const iqr = ((100 * (quantile(xs[0]!, 0.75) - quantile(xs[0]!, 0.25))) / med[0]!).toFixed(1);
  const ratios = med.slice(1).map((m) => `${(m / med[0]!).toFixed(3)}`);
  console.log(
    `batch ${String(medians.length - 1).padStart(3)} at ${((performance.now() - t0) / 1000).toFixed(1).padStart(5)} s: ${med.map((m) => m.toFixed(0).padStart(6)).join(' ')}  reference IQR ${iqr}%${ratios.length ? `  / reference ${ratios.join(' ')}` : ''}`,
  );
  await new Promise((r) => setTimeout(r, 300));
}
const span = (xs: number[]): string => `${(Math.max(...xs) / Math.min(...xs)).toFixed(2)}x`;
console.log(`over ${medians.length} batches, highest / lowest batch median:`);
for (const [j, k] of kernels.entries()) {
  const own = medians.map((m) => m[j]!);
  const ratio = j === 0 ? '' : `; its time over the reference's ${span(medians.map((m) => m[j]! / m[0]!))}`;
  console.log(`  ${k.name.padEnd(28)} ${span(own)} (median ${quantile(own, 0.5).toFixed(0)} µs)${ratio}`);
}
