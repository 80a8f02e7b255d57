// The spread of a CPU kernel's time into a freshly allocated output against a reused one: what
// provisioning the output's pages outside the clock (native/src/prefault.h) is for. A bimodal
// fresh-output time reaches the planner's probes and the oracle alike. Beside the kernel's time,
// the call's: provisioning a fresh output is paid there (outputs of 1.5 MiB and more in huge pages
// where the system offers them; DYPE_HUGE_PAGES=0 turns that off, to compare; DYPE_KEEP_FREED_MEMORY=0
// maps every fresh output apart again, as glibc does by default: freed-memory.ts).
// Run: node --import tsx bench/kernels/fresh-output.ts [--dataset 4elt] [--share 0.3] [--k 64] [--calls 400]

import { parseArgs } from 'node:util';
import { DenseMatrix } from '../../src/data/dense.js';
import { spmmTimed } from '../../src/kernels/spmm.js';
import { quantile } from '../../src/stats.js';
import { loadDataset } from '../common/datasets.js';

const { values: args } = parseArgs({
  options: {
    dataset: { type: 'string', default: '4elt' },
    share: { type: 'string', default: '0.3' },
    k: { type: 'string', default: '64' },
    calls: { type: 'string', default: '400' },
  },
  strict: true,
});
const a = (await loadDataset(args.dataset, 'f32')).matrix;
if (!a) throw new Error(`${args.dataset}: not a matrix dataset (or ../shared/datasets is absent)`);
const k = Number(args.k);
const rows = Math.max(1, Math.round(Number(args.share) * a.rows));
const x = new DenseMatrix(a.cols, k, new Float32Array(a.cols * k).fill(1));
const reused = new DenseMatrix(rows, k, new Float32Array(rows * k));
console.log(`SpMM of rows [0, ${rows}) of ${args.dataset} (${a.rows} rows), k = ${k}, ${args.calls} calls each, interleaved; µs`);
const times = { fresh: [] as number[], reused: [] as number[], 'fresh call': [] as number[], 'reused call': [] as number[] };
for (let i = 0; i < Number(args.calls); i++) {
  let t0 = performance.now();
  times.fresh.push((await spmmTimed('bench', a, x, { rows: [0, rows] })).seconds * 1e6);
  times['fresh call'].push((performance.now() - t0) * 1e3);
  t0 = performance.now();
  times.reused.push((await spmmTimed('bench', a, x, { rows: [0, rows], out: reused })).seconds * 1e6);
  times['reused call'].push((performance.now() - t0) * 1e3);
}
for (const [name, xs] of Object.entries(times)) {
  const q = (p: number): string => quantile(xs, p).toFixed(0).padStart(6);
  console.log(`${name.padEnd(11)} p50 ${q(0.5)}  p90 ${q(0.9)}  p99 ${q(0.99)}  max ${q(1)}`);
}
