// Multi-source BFS against as many single searches, on the long-diameter graphs where it falls
// back to single searches (road networks, meshes): one msbfs call of 64 seeded sources against
// 64 bfs calls, both writing into reused outputs, paired rounds, medians. Run it once per thread
// count (DYPE_THREADS=1, then the default) to see what spreading the searches over the pool gives.
// Run: node --import tsx bench/kernels/msbfs-long.ts [--datasets luxembourg_osm,mdual,delaunay_n16,4elt] [--rounds 7]

import { parseArgs } from 'node:util';
import { CsrMatrix } from '../../src/data/csr.js';
import { bfs } from '../../src/kernels/bfs.js';
import { msbfs } from '../../src/kernels/msbfs.js';
import { nativeAddon } from '../../src/native/addon.js';
import { median } from '../../src/stats.js';
import { loadDataset } from '../common/datasets.js';
import { pickSources } from './bfs-multi.js';

const { values: args } = parseArgs({
  options: { datasets: { type: 'string', default: 'luxembourg_osm,mdual,delaunay_n16,4elt' }, rounds: { type: 'string', default: '7' } },
  strict: true,
});
const rounds = Number(args.rounds);
if (!(Number.isInteger(rounds) && rounds >= 1)) throw new Error(`msbfs-long: --rounds must be a whole number >= 1, got ${args.rounds}`);
console.log(`| graph | vertices | msbfs ms | 64 bfs ms | 64 bfs / msbfs | threads ${nativeAddon().threads()} |`);
console.log('|---|---|---|---|---|---|');
for (const name of args.datasets.split(',')) {
  const loaded = await loadDataset(name, 'f32');
  if (!loaded.matrix) {
    console.log(`| ${name} | skipped: ${loaded.reason} |`);
    continue;
  }
  const m = loaded.matrix;
  const g = new CsrMatrix({ rows: m.rows, cols: m.cols, rowPtr: m.rowPtr, colIdx: m.colIdx, symmetric: m.symmetric });
  const sources = pickSources(g, 64, 7);
  const depth = new Int32Array(g.rows);
  const depths = new Int32Array(sources.length * g.rows);
  const multi: number[] = [];
  const singles: number[] = [];
  await msbfs(g, sources, { out: depths });
  for (let r = 0; r < rounds; r++) {
    let t = performance.now();
    await msbfs(g, sources, { out: depths });
    multi.push(performance.now() - t);
    t = performance.now();
    for (const s of sources) await bfs(g, s, { out: { depth } });
    singles.push(performance.now() - t);
  }
  const ratio = median(singles.map((s, k) => s / multi[k]!));
  console.log(`| ${name} | ${g.rows} | ${median(multi).toFixed(1)} | ${median(singles).toFixed(1)} | ${ratio.toFixed(2)} | |`);
}
