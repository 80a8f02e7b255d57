// An SpMM's time when its dense input was allocated zeroed and never written, against the same
// shape of written data. Until written, every page of a fresh zeroed array maps the kernel's one
// zero page, so the gathers hit a single cached page: the kernel looks faster than it will be on
// real data. The planner's probes once ran on such stand-ins (src/scheduler/probe-operands.ts).
// Run: node --import tsx bench/kernels/untouched-input.ts [--dataset delaunay_n16] [--k 64] [--calls 30]

import { parseArgs } from 'node:util';
import { DenseMatrix } from '../../src/data/dense.js';
import { spmmTimed } from '../../src/kernels/spmm.js';
import { quantile } from '../../src/stats.js';
import { loadDataset } from '../common/datasets.js';

const { values: args } = parseArgs({
  options: {
    dataset: { type: 'string', default: 'delaunay_n16' },
    k: { type: 'string', default: '64' },
    calls: { type: 'string', default: '30' },
  },
  strict: true,
});
const a = (await loadDataset(args.dataset, 'f32')).matrix;
if (!a) throw new Error(`${args.dataset}: not a matrix dataset (or ../shared/datasets is absent)`);
const k = Number(args.k);
const n = a.cols * k;
const inputs = {
  'untouched zeros': new DenseMatrix(a.cols, k, new Float32Array(n), { allowNonFinite: true }),
  'written zeros': new DenseMatrix(a.cols, k, new Float32Array(n).fill(1).fill(0)),
  'written 0.5': new DenseMatrix(a.cols, k, new Float32Array(n).fill(0.5)),
};
console.log(`SpMM of ${args.dataset} (${a.rows} rows, ${a.nnz} entries), k = ${k}, ${args.calls} calls of each input, interleaved; µs`);
const times = new Map(Object.keys(inputs).map((name) => [name, [] as number[]]));
for (let i = 0; i < Number(args.calls); i++)
  for (const [name, x] of Object.entries(inputs)) times.get(name)!.push((await spmmTimed('bench', a, x)).seconds * 1e6);
const written = quantile(times.get('written 0.5')!, 0.5);
for (const [name, xs] of times) {
  const q = (p: number): string => quantile(xs, p).toFixed(0).padStart(7);
  console.log(`${name.padEnd(16)} p25 ${q(0.25)}  p50 ${q(0.5)}  p75 ${q(0.75)}  written / this ${(written / quantile(xs, 0.5)).toFixed(2)}x`);
}
