// A rank's local work in a distributed BFS: the level steps as the search runs them (natively on
// wide levels, native/src/kernels/dist_bfs.cc) against the plain TypeScript loops throughout, side
// by side in one process, with no MPI: the first half of a graph's rows is the rank, the second
// half its halo (a two-rank row partition). Each task is one whole search from a fixed source,
// top-down until the frontier's edges pass the unvisited edges / 14, bottom-up while the frontier
// grows, then top-down again (Beamer's rule on the rank's own counts; the halo never in the
// frontier), so both tasks take the same levels. Reports median ms and plain / native.
// Run: node --expose-gc --import tsx bench/distributed/bfs-steps.ts [--graph kron:18] [--source 0]
//      (the pool's thread count from DYPE_THREADS, as every kernel's)

import { parseArgs } from 'node:util';
import { Bench } from 'tinybench';
import { bottomUpStep, plainBottomUpStep, plainTopDownStep, type RankRows, topDownStep } from '../../src/distributed/bfs-steps.js';
import { nativeAddon } from '../../src/native/addon.js';
import { loadGraph } from './graphs.js';

const { values: args } = parseArgs({
  options: { graph: { type: 'string', default: 'kron:18' }, source: { type: 'string', default: '0' } },
  strict: true,
});
const graph = await loadGraph(args.graph);
if (!(graph.rowPtr instanceof Int32Array)) throw new Error(`bfs-steps: ${args.graph} needs 64-bit row pointers`);
const own = graph.rows >> 1;
const rank: RankRows = { own, halo: graph.rows - own, rowPtr: graph.rowPtr.slice(0, own + 1), colIdx: graph.colIdx.slice(0, graph.rowPtr[own]) };
const source = Number(args.source);
if (!Number.isInteger(source) || source < 0 || source >= own)
  throw new Error(`bfs-steps: --source must be a row of the rank's half [0, ${own}), got ${args.source}`);
const degree = (v: number): number => rank.rowPtr[v + 1]! - rank.rowPtr[v]!;

interface Step {
  readonly topDown: (depths: Int32Array, frontier: Int32Array, size: number, sent: Uint8Array, level: number, next: Int32Array) => Promise<number>;
  readonly bottomUp: (depths: Int32Array, inFrontier: Uint8Array, level: number, next: Int32Array) => Promise<number>;
}

const noHalo = new Uint8Array(rank.halo);
const outbox = new Int32Array(rank.halo);
const edgesOf = (f: Int32Array, size: number): number => {
  let edges = 0;
  for (let i = 0; i < size; i++) edges += degree(f[i]!);
  return edges;
};
// As the distributed search calls them (bfs.ts), sized the same way.
const native: Step = {
  topDown: async (depths, frontier, frontierSize, haloSent, level, next) =>
    (await topDownStep(rank, { depths, frontier, frontierSize, haloSent, level, next, outbox }, edgesOf(frontier, frontierSize))).nextSize,
  bottomUp: async (depths, inFrontier, level, next) => bottomUpStep(rank, { depths, inFrontier, haloFrontier: noHalo, level, next }, rank.colIdx.length),
};
const plain: Step = {
  topDown: async (depths, frontier, frontierSize, haloSent, level, next) =>
    plainTopDownStep(rank, { depths, frontier, frontierSize, haloSent, level, next, outbox }).nextSize,
  bottomUp: async (depths, inFrontier, level, next) => plainBottomUpStep(rank, { depths, inFrontier, haloFrontier: noHalo, level, next }),
};

/** One search with `step`; the levels' directions, for checking both tasks took the same. */
async function search(step: Step): Promise<{ depths: Int32Array; directions: string }> {
  const depths = new Int32Array(own).fill(-1);
  const sent = new Uint8Array(rank.halo);
  const inFrontier = new Uint8Array(own);
  let frontier = new Int32Array(own);
  let next = new Int32Array(own);
  let size = 1;
  frontier[0] = source;
  depths[source] = 0;
  let unvisited = rank.colIdx.length;
  let previous = 0;
  let bottomUp = false;
  let directions = '';
  for (let level = 0; size > 0; level++) {
    let edges = 0;
    for (let f = 0; f < size; f++) edges += degree(frontier[f]!);
    unvisited -= edges;
    if (!bottomUp && size > previous && edges > unvisited / 14) bottomUp = true;
    else if (bottomUp && size < previous && size < own / 24) bottomUp = false;
    previous = size;
    directions += bottomUp ? 'b' : 't';
    let nextSize: number;
    if (bottomUp) {
      inFrontier.fill(0);
      for (let f = 0; f < size; f++) inFrontier[frontier[f]!] = 1;
      nextSize = await step.bottomUp(depths, inFrontier, level, next);
    } else nextSize = await step.topDown(depths, frontier, size, sent, level, next);
    [frontier, next] = [next, frontier];
    size = nextSize;
  }
  return { depths, directions };
}

const a = await search(native);
const b = await search(plain);
if (a.directions !== b.directions || a.depths.some((d, i) => d !== b.depths[i]))
  throw new Error(`bfs-steps: native and plain searches differ (levels ${a.directions} against ${b.directions})`);
const bench = new Bench({ time: 2000, warmupTime: 300, iterations: 10 });
bench.add('native', () => search(native).then(() => undefined));
bench.add('plain', () => search(plain).then(() => undefined));
await bench.run();
const p50 = (name: string): number => {
  const r = bench.getTask(name)?.result;
  if (r === undefined || r.state !== 'completed') throw new Error(`bfs-steps: ${name}: ${r?.state ?? 'missing'}`);
  return r.latency.p50!;
};
const [n, p] = [p50('native'), p50('plain')];
console.log(
  `${args.graph}: a rank of ${own.toLocaleString('en')} rows and ${rank.colIdx.length.toLocaleString('en')} entries, levels ${a.directions}, ${nativeAddon().threads()} thread(s): ` +
    `native ${n.toFixed(2)} ms, plain ${p.toFixed(2)} ms (median), plain / native ${(p / n).toFixed(2)}`,
);
