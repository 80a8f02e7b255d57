// How steady a two-thread CPU kernel's time is, called off the JavaScript thread (the host lane)
// and from it: a caller and a pool worker that share one core for a call make its time bimodal
// (docs/threads.md). Prints each batch's median and third quartile, and counts the batches that
// were bimodal (third quartile over 1.3x the median) or slow (median over 1.3x the fastest batch's).
// Run: node --import tsx bench/kernels/placement.ts [--dataset bcsstk13] [--k 32] [--calls 400] [--batches 8]
// (DYPE_PIN=0 to compare with unbound threads.)

import { parseArgs } from 'node:util';
import { nativeAddon } from '../../src/native/addon.js';
import { quantile } from '../../src/stats.js';
import { loadDataset } from '../common/datasets.js';

const { values: args } = parseArgs({
  options: {
    dataset: { type: 'string', default: 'bcsstk13' },
    k: { type: 'string', default: '32' },
    calls: { type: 'string', default: '400' },
    batches: { type: 'string', default: '8' },
  },
  strict: true,
});
const a = (await loadDataset(args.dataset, 'f32')).matrix;
if (!a) throw new Error(`${args.dataset}: not a matrix dataset (or ../shared/datasets is absent)`);
const k = Number(args.k);
const x = new Float32Array(a.cols * k).fill(1);
const y = new Float32Array(a.rows * k);
const addon = nativeAddon();
console.log(`SpMM of ${args.dataset} (${a.rows} rows, ${a.nnz} entries), k = ${k}, ${args.calls} calls a batch; µs (median / third quartile)`);
const bimodal = { lane: 0, js: 0 };
const medians = { lane: [] as number[], js: [] as number[] };
for (let b = 0; b < Number(args.batches); b++) {
  const line: string[] = [];
  for (const where of ['lane', 'js'] as const) {
    const t: number[] = [];
    for (let i = 0; i < Number(args.calls); i++) {
      // Mode 0: the host lane; 1: the JavaScript thread where that is safe (src/native/addon.ts, InlineMode).
      const r = await addon.spmm(a.rows, a.cols, a.rowPtr, a.colIdx, a.values ?? null, x, k, y, 0, a.rows, where === 'lane' ? 0 : 1);
      t.push(r.seconds * 1e6);
    }
    const med = quantile(t, 0.5);
    const q3 = quantile(t, 0.75);
    if (q3 > 1.3 * med) bimodal[where]++;
    medians[where].push(med);
    line.push(`${where} ${med.toFixed(1)} / ${q3.toFixed(1)}`);
  }
  console.log(`batch ${b + 1}: ${line.join('   ')}`);
}
const slow = (m: number[]): number => m.filter((x) => x > 1.3 * Math.min(...m)).length;
console.log(
  `of ${args.batches} batches: bimodal lane ${bimodal.lane}, JavaScript thread ${bimodal.js}; slow lane ${slow(medians.lane)}, JavaScript thread ${slow(medians.js)}`,
);
