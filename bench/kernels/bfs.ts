// BFS per search and in TEPS: dype's direction-optimising bfs against a GAP-style
// direction-optimising BFS (bench/references/gap_bfs.h, timed in this process and in one of its
// own, the faster counting), a plain serial queue BFS and SuiteSparse:GraphBLAS's
// level-synchronous BFS in the same run, on Kronecker and real graphs, summarised per graph
// class; then 64 sources at once (msbfs) against 64 calls.
// Run: node --expose-gc --import tsx bench/kernels/bfs.ts [--quick | --ci] [--sources 16] [--directed] [--only a,b] [--threads 1,2] [--no-graphblas]

import { parseArgs } from 'node:util';
import type { CsrMatrix } from '../../src/data/csr.js';
import { bfs } from '../../src/kernels/bfs.js';
import { nativeAddon } from '../../src/native/addon.js';
import { checkParents, gapOwnProcess } from './bfs-gap.js';
import { componentEdges, type GraphClass, GRAPHS, prepare } from './bfs-graphs.js';
import { multiSource, pickSources, sameDepths } from './bfs-multi.js';
import { type GraphblasBfs, type GraphblasReference, graphblasOf, loadReferences, type ReferenceAddon } from '../references/load.js';
import { type BenchSettings, type Candidate, collectGarbage, measurePaired, median, pairedRatio, type PairedSettings, type Timing } from '../common/measure.js';
import { runPerThreadCount, threadCounts } from './threads.js';
import { emitReport, fixed, machineInfo, ms, progress, type SuiteReport, type Table } from '../common/report.js';

const MSBFS_SOURCES = 64;

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    ci: { type: 'boolean', default: false },
    sources: { type: 'string' },
    directed: { type: 'boolean', default: false },
    only: { type: 'string' },
    json: { type: 'string' },
    quiet: { type: 'boolean', default: false },
    threads: { type: 'string' },
    'no-graphblas': { type: 'boolean', default: false },
  },
  strict: true,
});
if (args.quick && args.ci) throw new Error('--quick and --ci are different sizes: pass one');
/** full: every graph; ci: the regression gate's size (small graphs, 8 sources); quick: a smoke run. */
const size: 'full' | 'ci' | 'quick' = args.ci ? 'ci' : args.quick ? 'quick' : 'full';
const quick = size !== 'full';
const sourceCount = Number(args.sources ?? { full: 16, ci: 8, quick: 4 }[size]);
if (!Number.isInteger(sourceCount) || sourceCount < 1) throw new Error(`--sources must be a positive integer, got ${args.sources}`);

/** Per source, paired rounds (one call of each implementation per round): few, since the sources already give the spread. */
const SEARCH: PairedSettings = {
  full: { warmup: 2, minRounds: 10, maxRounds: 100, time: 100 },
  ci: { warmup: 1, minRounds: 7, maxRounds: 50, time: 50 },
  quick: { warmup: 1, minRounds: 3, maxRounds: 3, time: 0 },
}[size];
const MULTI: BenchSettings = quick
  ? { time: 0, warmupTime: 0, iterations: 2, warmupIterations: 1 }
  : { time: 500, warmupTime: 0, iterations: 5, warmupIterations: 1 };

interface SearchRow {
  readonly source: number;
  readonly levels: number;
  readonly reached: number;
  readonly edges: number;
  readonly warm: Timing;
  readonly cold: Timing;
  readonly plain: Timing;
  readonly graphblas: Timing | undefined;
  /** The GAP-style reference in this process (OpenMP waiting passively), paired with dype. */
  readonly gap: Timing;
  /** Paired (per-round) ratios against dype's warm search, median over rounds. */
  readonly plainRatio: number;
  readonly gapInProcessRatio: number;
  readonly graphblasRatio: number | undefined;
}

interface GraphResult {
  readonly graph: string;
  readonly graphClass: GraphClass;
  readonly treatment: string;
  readonly vertices: number;
  readonly storedEntries: number;
  readonly searches: readonly SearchRow[];
  readonly warmMs: number;
  readonly coldMs: number;
  readonly plainMs: number;
  readonly graphblasMs: number | undefined;
  /** Medians over sources of each source's paired ratio: reference time / dype time (>= 1: dype at least as fast). */
  readonly plainRatio: number;
  readonly graphblasRatio: number | undefined;
  /** GAP-style reference ms per search: in this process, in its own process (undefined where it could not run), the faster. */
  readonly gapInProcessMs: number;
  readonly gapOwnProcessMs: number | undefined;
  /** dype's searches timed back to back (rounds outermost over the sources), median over sources. */
  readonly dypeBackToBackMs: number;
  /** Median over sources of (the faster of the two GAP-style times) / (the faster of dype's two) for that source. */
  readonly gapRatio: number;
  readonly mteps: number;
  readonly plainMteps: number;
  readonly multi: { readonly sources: number; readonly msbfsMs: number; readonly singlesMs: number } | undefined;
}

async function searches(g: CsrMatrix, ref: ReferenceAddon, gb: GraphblasBfs | undefined, sources: Int32Array): Promise<SearchRow[]> {
  const rowPtr = g.rowPtr as Int32Array;
  const depth = new Int32Array(g.rows);
  const plainDepth = new Int32Array(g.rows);
  const gbDepth = new Int32Array(g.rows);
  const parent = new Int32Array(g.rows);
  const threads = nativeAddon().threads();
  const gap = () => ref.gapBfs(g.rows, rowPtr, g.colIdx, rowPtr, g.colIdx, s0, parent, threads);
  let s0 = 0;
  const rows: SearchRow[] = [];
  for (let j = 0; j < sources.length; j++) {
    const s = sources[j]!;
    const r = await bfs(g, s, { out: { depth } });
    ref.plainBfs(g.rows, rowPtr, g.colIdx, s, plainDepth);
    sameDepths(`bfs from ${s}`, depth, plainDepth);
    s0 = s;
    gap();
    checkParents(`GAP-style bfs from ${s}`, g, s, parent, plainDepth);
    if (gb) {
      gb.run(s);
      gb.read(gbDepth);
      sameDepths(`GraphBLAS bfs from ${s}`, gbDepth, plainDepth);
    }
    const candidates: Candidate[] = [
      { name: 'warm', fn: () => bfs(g, s, { out: { depth } }), async: true },
      { name: 'cold', fn: () => bfs(g, s), async: true },
      { name: 'plain', fn: () => ref.plainBfs(g.rows, rowPtr, g.colIdx, s, plainDepth), async: false },
      { name: 'gap', fn: gap, async: false },
      ...(gb ? [{ name: 'graphblas', fn: () => gb.run(s), async: false }] : []),
    ];
    // One timed call of each per round, after an untimed call of itself (measurePaired says why).
    const { timings, samples } = await measurePaired(candidates, SEARCH);
    rows.push({
      source: s,
      levels: r.frontier.length,
      reached: r.reached,
      edges: componentEdges(g, depth),
      warm: timings[0]!,
      cold: timings[1]!,
      plain: timings[2]!,
      gap: timings[3]!,
      graphblas: timings[4],
      plainRatio: pairedRatio(samples[2]!, samples[0]!),
      gapInProcessRatio: pairedRatio(samples[3]!, samples[0]!),
      graphblasRatio: gb ? pairedRatio(samples[4]!, samples[0]!) : undefined,
    });
  }
  return rows;
}

/**
 * dype's search from each source timed back to back, as the GAP-style reference's own process
 * times it: one untimed pass, then `rounds` passes over the sources (rounds outermost). Median
 * ms per source.
 */
async function backToBack(g: CsrMatrix, sources: Int32Array, rounds: number): Promise<number[]> {
  const depth = new Int32Array(g.rows);
  const times = Array.from(sources, (): number[] => []);
  for (const s of sources) await bfs(g, s, { out: { depth } });
  for (let r = 0; r < rounds; r++) {
    for (let j = 0; j < sources.length; j++) {
      const t = performance.now();
      await bfs(g, sources[j]!, { out: { depth } });
      times[j]!.push(performance.now() - t);
    }
  }
  return times.map(median);
}

async function main(): Promise<void> {
  const machine = machineInfo();
  const refs = loadReferences();
  if (refs.addon === undefined) {
    progress(`bfs: skipped, ${refs.reason}`);
    process.exit(0);
  }
  const ref = refs.addon;
  const threads = nativeAddon().threads();
  const gbLoaded = graphblasOf(ref, threads);
  const graphblas: GraphblasReference | undefined = gbLoaded.graphblas;
  const notes: string[] = [];
  if (gbLoaded.graphblas === undefined) {
    progress(`bfs: ${gbLoaded.reason}`);
    notes.push(`GraphBLAS: ${gbLoaded.reason}.`);
  }
  const only = args.only?.split(',').map((s) => s.trim());
  const unknown = only?.filter((n) => !GRAPHS.some((x) => x.name === n)) ?? [];
  if (unknown.length > 0) throw new Error(`--only: unknown input ${unknown.join(', ')} (known: ${GRAPHS.map((x) => x.name).join(', ')})`);
  const specs = GRAPHS.filter((g) => (only ? only.includes(g.name) : g.sizes.includes(size)));
  const results: GraphResult[] = [];
  for (const spec of specs) {
    const made = await spec.make();
    if (typeof made === 'string') {
      progress(`bfs ${spec.name}: skipped, ${made}`);
      notes.push(`${spec.name} skipped: ${made}`);
      continue;
    }
    const { graph: g, treatment } = prepare(made, args.directed);
    if (!(g.rowPtr instanceof Int32Array)) throw new Error(`${spec.name}: the plain BFS needs 32-bit row pointers`);
    progress(`bfs ${spec.name}: ${g.toString()} (${treatment}), ${sourceCount} sources`);
    // GraphBLAS's push-only BFS takes seconds a search on the larger graphs: --no-graphblas leaves it out.
    const gb = graphblas && !args['no-graphblas'] ? new graphblas.Bfs(g.rowPtr, g.colIdx) : undefined;
    let rows: SearchRow[];
    const sources = pickSources(g, sourceCount, 1);
    try {
      rows = await searches(g, ref, gb, sources);
    } finally {
      gb?.free();
    }
    const own = gapOwnProcess(g, sources, threads, SEARCH.minRounds);
    const gapBest = rows.map((r, j) => Math.min(r.gap.median, own?.[j] ?? Infinity));
    // dype timed as the reference's own process times it (searches back to back), the faster
    // of that and its paired time counting, as for the reference: neither side is held to its slower way.
    const block = await backToBack(g, sources, SEARCH.minRounds);
    const dypeBest = rows.map((r, j) => Math.min(r.warm.median, block[j]!));
    const multi = await multiSource(g, ref, MULTI, MSBFS_SOURCES);
    const warmMs = median(rows.map((r) => r.warm.median));
    const gbRatios = rows.flatMap((r) => (r.graphblasRatio === undefined ? [] : [r.graphblasRatio]));
    const result: GraphResult = {
      graph: spec.name,
      graphClass: spec.graphClass,
      treatment,
      vertices: g.rows,
      storedEntries: g.nnz,
      searches: rows,
      warmMs,
      coldMs: median(rows.map((r) => r.cold.median)),
      plainMs: median(rows.map((r) => r.plain.median)),
      graphblasMs: gb ? median(rows.map((r) => r.graphblas!.median)) : undefined,
      plainRatio: median(rows.map((r) => r.plainRatio)),
      graphblasRatio: gbRatios.length > 0 ? median(gbRatios) : undefined,
      gapInProcessMs: median(rows.map((r) => r.gap.median)),
      gapOwnProcessMs: own ? median(own) : undefined,
      dypeBackToBackMs: median(block),
      gapRatio: median(rows.map((_, j) => gapBest[j]! / dypeBest[j]!)),
      mteps: median(rows.map((r) => r.edges / (r.warm.median * 1e3))),
      plainMteps: median(rows.map((r) => r.edges / (r.plain.median * 1e3))),
      multi,
    };
    results.push(result);
    progress(
      `  dype ${ms(warmMs)} ms/search paired / ${ms(result.dypeBackToBackMs)} back to back (${fixed(result.mteps, 0)} MTEPS), GAP-style ${ms(result.gapInProcessMs)} ms here / ` +
        `${result.gapOwnProcessMs === undefined ? 'n/a' : ms(result.gapOwnProcessMs)} ms own process, gap/dype ${fixed(result.gapRatio)}; plain ${ms(result.plainMs)} ms` +
        (result.graphblasMs !== undefined ? `, graphblas ${ms(result.graphblasMs)} ms` : '') +
        `; plain/dype ${fixed(result.plainRatio)}` +
        (result.graphblasRatio !== undefined ? `, graphblas/dype ${fixed(result.graphblasRatio)}` : '') +
        (multi ? `; msbfs ${ms(multi.msbfsMs)} ms vs ${multi.sources} calls ${ms(multi.singlesMs)} ms` : ''),
    );
    collectGarbage();
  }

  const tables: Table[] = [
    {
      title: `BFS per search: median over ${sourceCount} sources of each source's median (ms); ratios: median over sources of the paired per-round ratio`,
      columns: [
        'graph',
        'class',
        'vertices',
        'stored entries',
        'levels (median / max)',
        'dype ms',
        'dype cold ms',
        'GAP-style ms (here / own process)',
        'gap/dype',
        'plain ms',
        'plain/dype',
        'graphblas ms',
        'graphblas/dype',
        'dype MTEPS',
      ],
      rows: results.map((r) => {
        const levels = r.searches.map((s) => s.levels);
        return [
          `${r.graph} (${r.treatment})`,
          r.graphClass,
          String(r.vertices),
          String(r.storedEntries),
          `${median(levels)} / ${Math.max(...levels)}`,
          ms(r.warmMs),
          ms(r.coldMs),
          `${ms(r.gapInProcessMs)} / ${r.gapOwnProcessMs === undefined ? 'n/a' : ms(r.gapOwnProcessMs)}`,
          fixed(r.gapRatio),
          ms(r.plainMs),
          fixed(r.plainRatio),
          r.graphblasMs === undefined ? 'n/a' : ms(r.graphblasMs),
          r.graphblasRatio === undefined ? 'n/a' : fixed(r.graphblasRatio),
          fixed(r.mteps, 0),
        ];
      }),
    },
  ];
  const classes = [...new Set(results.map((r) => r.graphClass))];
  const byClass = Object.fromEntries(
    classes.map((c) => {
      const of = results.filter((r) => r.graphClass === c);
      return [c, { graphs: of.length, gapRatio: median(of.map((r) => r.gapRatio)), minGapRatio: Math.min(...of.map((r) => r.gapRatio)) }];
    }),
  );
  if (classes.length > 0) {
    tables.push({
      title: "Against the GAP-style reference per graph class: median over the class of each graph's gap/dype (>= 1: dype faster)",
      columns: ['class', 'graphs', 'gap/dype (median)', 'lowest graph'],
      rows: classes.map((c) => [c, String(byClass[c]!.graphs), fixed(byClass[c]!.gapRatio), fixed(byClass[c]!.minGapRatio)]),
    });
  }
  const withMulti = results.filter((r) => r.multi !== undefined);
  if (withMulti.length > 0) {
    tables.push({
      title: `Multi-source BFS: ${MSBFS_SOURCES} sources in one msbfs call against ${MSBFS_SOURCES} bfs calls (ms, medians)`,
      columns: ['graph', 'msbfs ms', `${MSBFS_SOURCES} x bfs ms`, 'speed-up'],
      rows: withMulti.map((r) => [r.graph, ms(r.multi!.msbfsMs), ms(r.multi!.singlesMs), fixed(r.multi!.singlesMs / r.multi!.msbfsMs)]),
    });
    tables.push({
      title: 'Multi-source BFS: lowest speed-up over the inputs (>= 1: never slower than the single searches)',
      columns: ['inputs', 'lowest speed-up', 'on'],
      rows: [
        (() => {
          const worst = withMulti.reduce((a, b) => (b.multi!.singlesMs / b.multi!.msbfsMs < a.multi!.singlesMs / a.multi!.msbfsMs ? b : a));
          return [String(withMulti.length), fixed(worst.multi!.singlesMs / worst.multi!.msbfsMs), worst.graph];
        })(),
      ],
    });
  }
  const summary = {
    medianGapRatio: results.length > 0 ? median(results.map((r) => r.gapRatio)) : NaN,
    gapRatioByClass: byClass,
    msbfsMinSpeedup: withMulti.length > 0 ? Math.min(...withMulti.map((r) => r.multi!.singlesMs / r.multi!.msbfsMs)) : NaN,
    medianPlainRatio: results.length > 0 ? median(results.map((r) => r.plainRatio)) : NaN,
    medianGraphblasRatio: results.some((r) => r.graphblasRatio !== undefined)
      ? median(results.flatMap((r) => (r.graphblasRatio === undefined ? [] : [r.graphblasRatio])))
      : NaN,
    graphs: results.length,
  };
  tables.push({
    title: 'Medians over graphs (>= 1: dype at least as fast)',
    columns: ['graphs', 'gap/dype', 'plain/dype', 'graphblas/dype'],
    rows: [[String(summary.graphs), fixed(summary.medianGapRatio), fixed(summary.medianPlainRatio), fixed(summary.medianGraphblasRatio)]],
  });
  notes.push(
    `dype = await bfs(graph, source, { out: { depth } }) (direction-optimising, ${threads} threads, output reused); "cold" allocates a fresh depth array per search (page faults included); plain = serial queue BFS in C++ (bench/references), depth array reused, its queue allocated per call.`,
    graphblas
      ? `graphblas = SuiteSparse:GraphBLAS ${graphblas.version}, GxB_NTHREADS = ${threads}: the level-synchronous BFS (depth<frontier> = level; frontier<!struct(depth), replace> = frontier' * A over ANY_PAIR) until the frontier is empty, with the adjacency converted once before timing; it ends with the depths in a GrB_Vector (not copied out to an array). Push only: no direction optimisation.`
      : 'graphblas: not built here.',
    `Per source, the implementations are timed in paired rounds (one timed call of each per round, right after an untimed call of itself so each runs on the cache it leaves itself, the order rotating; at least ${SEARCH.minRounds} rounds); ratios are medians over rounds of each round's ratio, then over sources. Every source's dype (and GraphBLAS) depths were checked equal to the plain BFS's first.`,
    "TEPS as in Graph500: edges of the reached component (undirected edges once: sum of the reached vertices' row lengths / 2) over the search time, median over sources. Graphs have self-loops and duplicate edges removed.",
    args.directed
      ? 'Directed datasets (soc-Slashdot0902, email-Enron, wiki-Vote) are searched along out-edges; TEPS counts out-edges of reached vertices.'
      : 'Directed datasets (soc-Slashdot0902, email-Enron, wiki-Vote) are symmetrized (A + A^T), as Graph500 and GAP search undirected graphs; --directed searches them along out-edges instead.',
    'Kronecker graphs: Graph500 R-MAT (0.57, 0.19, 0.19), edge factor 16, seed 1, undirected.',
    `GAP-style = bench/references/gap_bfs.h, a direction-optimising BFS written from Beamer et al. (SC 2012) and the GAP suite's description (alpha 15, beta 18, parent array, per-thread queue buffers, bitmap bottom-up), ${threads} OpenMP threads, parent array reused. Timed twice: in this process in the paired rounds (OMP_WAIT_POLICY=passive, so its idle threads leave dype's cores alone) and in a process of its own (bench/references/gap_bfs_main.cc, OpenMP's default waits, ${SEARCH.minRounds} rounds per source); gap/dype uses the faster of the two per source. Its parents were checked against the plain BFS's depths. docs/speed.md records the check against gapbs itself.`,
  );
  const report: SuiteReport = {
    suite: 'bfs',
    title: `BFS${size === 'full' ? '' : ` (${size} size)`}`,
    date: new Date().toISOString(),
    machine,
    settings: { size, quick, sources: sourceCount, directed: args.directed, threads, search: SEARCH, multi: MULTI },
    notes,
    tables,
    data: { graphs: results, summary },
  };
  emitReport(report, args.json, args.quiet);
}

const counts = threadCounts(args.threads);
if (counts !== undefined && (counts.length > 1 || String(counts[0]) !== process.env['DYPE_THREADS'])) {
  emitReport(runPerThreadCount(import.meta.url, process.argv.slice(2), counts), args.json, args.quiet);
} else {
  await main();
}
