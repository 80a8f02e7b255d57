// Two builds of the native addon's BFS against each other in one process, on the BFS suite's
// graphs prepared as the suite prepares them: per source, each round times one search of each
// build (after an untimed search of the same build, the order alternating), and the ratio is the
// median over rounds of old / new. The depths of both are checked against the plain serial BFS.
// For judging a kernel change before it lands; the regression gate judges it against the
// GAP-style reference afterwards.
// Run: node --import tsx bench/kernels/bfs-builds.ts --old OLD.node --new NEW.node
//        [--only email-Enron,kronecker-16] [--sources 16] [--rounds 3]
// (build the old addon first and copy build/Release/dype_native.node aside; DYPE_THREADS sets
// the threads of both).

import { parseArgs } from 'node:util';
import { median } from '../../src/stats.js';
import { loadReferences } from '../references/load.js';
import { GRAPHS, prepare } from './bfs-graphs.js';
import { sameDepths } from './bfs-multi.js';
import { letOtherLaneSleep, loadTwoBuilds, positiveCount } from './two-builds.js';

const { values: args } = parseArgs({
  options: {
    old: { type: 'string' },
    new: { type: 'string' },
    only: { type: 'string', default: 'kronecker-16,email-Enron,facebook_combined,wiki-Vote,luxembourg_osm,delaunay_n16,bcsstk25' },
    sources: { type: 'string', default: '16' },
    rounds: { type: 'string', default: '3' },
  },
  strict: true,
});
const sourceCount = positiveCount('--sources', args.sources);
const rounds = positiveCount('--rounds', args.rounds);

interface BfsAddon {
  bfs(...a: unknown[]): Promise<{ seconds: number }>;
}
const { oldBuild, newBuild } = loadTwoBuilds<BfsAddon>(args.old, args.new);
const plain = loadReferences().addon;
if (plain === undefined) throw new Error('bfs-builds: the reference addon (bench/references) is not built: run npm run build:references');

for (const name of args.only.split(',')) {
  const spec = GRAPHS.find((g) => g.name === name);
  if (spec === undefined) throw new Error(`--only: no BFS graph named ${name} (bench/kernels/bfs-graphs.ts)`);
  const made = await spec.make();
  if (typeof made === 'string') {
    console.log(`${name}: skipped (${made})`);
    continue;
  }
  const g = prepare(made, false).graph;
  if (!(g.rowPtr instanceof Int32Array)) throw new Error(`${name}: the plain BFS needs 32-bit row pointers`);
  const rowPtr = g.rowPtr;
  const depthOld = new Int32Array(g.rows);
  const depthNew = new Int32Array(g.rows);
  const reference = new Int32Array(g.rows);
  const search = async (build: BfsAddon, source: number, depth: Int32Array): Promise<number> =>
    (await build.bfs(g.rows, rowPtr, g.colIdx, rowPtr, g.colIdx, source, depth, null, 0, 15, 18, false, -1, 0)).seconds * 1e3;
  const perSource: number[] = [];
  const oldMs: number[] = [];
  const newMs: number[] = [];
  for (let i = 0, v = 0; i < sourceCount && v < g.rows; v++) {
    const source = (v * 7919 + 13) % g.rows;
    if (g.rowStart(source + 1) === g.rowStart(source)) continue;
    i++;
    plain.plainBfs(g.rows, rowPtr, g.colIdx, source, reference);
    const perRound: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const t = [0, 0];
      for (const which of (i + r) % 2 === 0 ? [0, 1] : [1, 0]) {
        const [build, depth] = which === 0 ? [oldBuild, depthOld] : [newBuild, depthNew];
        await letOtherLaneSleep();
        await search(build, source, depth);
        t[which] = await search(build, source, depth);
      }
      perRound.push(t[0]! / t[1]!);
      oldMs.push(t[0]!);
      newMs.push(t[1]!);
    }
    sameDepths(`old build from ${source}`, depthOld, reference);
    sameDepths(`new build from ${source}`, depthNew, reference);
    perSource.push(median(perRound));
  }
  console.log(
    `${name}`.padEnd(20),
    `old/new ${median(perSource).toFixed(3)} (sources ${Math.min(...perSource).toFixed(2)}-${Math.max(...perSource).toFixed(2)})  old ${median(oldMs).toFixed(3)} ms  new ${median(newMs).toFixed(3)} ms`,
  );
}
