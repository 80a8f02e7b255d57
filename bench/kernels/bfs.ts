// BFS per search and in TEPS: dype's direction-optimising bfs against a plain serial queue BFS
// in the same run, on Kronecker and real graphs; then 64 sources at once (msbfs) against 64 calls.
// Run: node --expose-gc --import tsx bench/kernels/bfs.ts [--quick] [--sources 16] [--directed] [--only a,b]

import { parseArgs } from 'node:util';
import type { CsrMatrix } from '../../src/data/csr.js';
import { dropSelfLoops, symmetrize } from '../../src/data/convert.js';
import { kroneckerGraph, Rng } from '../../src/generators/index.js';
import { bfs } from '../../src/kernels/bfs.js';
import { msbfs } from '../../src/kernels/msbfs.js';
import { nativeAddon } from '../../src/native/addon.js';
import { loadReferences, type ReferenceAddon } from '../references/load.js';
import { loadDataset } from '../common/datasets.js';
import { type BenchSettings, type Candidate, collectGarbage, measure, median, type Timing } from '../common/measure.js';
import { emitReport, fixed, machineInfo, ms, progress, type SuiteReport, type Table } from '../common/report.js';

/**
 * The GAP benchmark suite's direction-optimising BFS on Kronecker scale 18 (edge factor 16) on
 * the reference machine, per search: a fixed published figure, not re-measured by this suite.
 */
const GAP_KRON18_MS = 4.0;
const MSBFS_SOURCES = 64;

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    sources: { type: 'string' },
    directed: { type: 'boolean', default: false },
    only: { type: 'string' },
    json: { type: 'string' },
    quiet: { type: 'boolean', default: false },
  },
  strict: true,
});
const quick = args.quick;
const sourceCount = Number(args.sources ?? (quick ? 4 : 16));
if (!Number.isInteger(sourceCount) || sourceCount < 1) throw new Error(`--sources must be a positive integer, got ${args.sources}`);

/** Per source and implementation: few iterations, since 16 sources already give the spread. */
const SEARCH: BenchSettings = quick
  ? { time: 0, warmupTime: 0, iterations: 3, warmupIterations: 1 }
  : { time: 100, warmupTime: 20, iterations: 10, warmupIterations: 2 };
const MULTI: BenchSettings = quick
  ? { time: 0, warmupTime: 0, iterations: 2, warmupIterations: 1 }
  : { time: 500, warmupTime: 0, iterations: 5, warmupIterations: 1 };

interface GraphSpec {
  readonly name: string;
  readonly inQuick: boolean;
  readonly make: () => Promise<CsrMatrix | string>;
}

const kron = (scale: number, inQuick: boolean): GraphSpec => ({
  name: `kronecker-${scale}`,
  inQuick,
  make: async () => kroneckerGraph({ scale, edgeFactor: 16, seed: 1 }),
});
const dataset = (name: string, inQuick: boolean): GraphSpec => ({
  name,
  inQuick,
  make: async () => {
    const r = await loadDataset(name, 'f32');
    return r.matrix ?? r.reason;
  },
});

const GRAPHS: readonly GraphSpec[] = [
  kron(18, true),
  kron(20, false),
  dataset('soc-Slashdot0902', false),
  dataset('email-Enron', true),
  dataset('luxembourg_osm', true),
  dataset('delaunay_n16', false),
  dataset('mdual', false),
  dataset('facebook_combined', true),
  dataset('wiki-Vote', false),
  dataset('bio-pathways', false),
];

/**
 * Graph500 and GAP search undirected graphs, so directed inputs are symmetrized unless asked
 * otherwise; self-loops are dropped everywhere since no search ever follows one.
 */
function prepare(g: CsrMatrix): { graph: CsrMatrix; treatment: string } {
  if (g.symmetric) return { graph: dropSelfLoops(g), treatment: 'undirected' };
  if (args.directed) return { graph: dropSelfLoops(g), treatment: 'directed' };
  return { graph: dropSelfLoops(symmetrize(g)), treatment: 'symmetrized' };
}

/** Distinct seeded vertices with at least one edge (Graph500 skips isolated roots). */
function pickSources(g: CsrMatrix, count: number, seed: number): Int32Array {
  const rng = new Rng(seed);
  const chosen = new Set<number>();
  for (let tries = 0; chosen.size < count && tries < 100 * count; tries++) {
    const v = rng.nextInt(g.rows);
    if (g.rowLength(v) > 0) chosen.add(v);
  }
  if (chosen.size < count) throw new Error(`${g.toString()}: found only ${chosen.size} sources with edges`);
  return Int32Array.from(chosen);
}

/** Edges in the reached component (Graph500 TEPS numerator): undirected edges counted once. */
function componentEdges(g: CsrMatrix, depth: Int32Array): number {
  let sum = 0;
  for (let v = 0; v < g.rows; v++) if (depth[v]! >= 0) sum += g.rowLength(v);
  return g.symmetric ? sum / 2 : sum;
}

function sameDepths(what: string, a: Int32Array, b: Int32Array, offset = 0): void {
  for (let v = 0; v < b.length; v++) {
    if (a[offset + v] !== b[v]) throw new Error(`${what}: depth of vertex ${v} is ${a[offset + v]}, the plain BFS says ${b[v]}`);
  }
}

interface SearchRow {
  readonly source: number;
  readonly levels: number;
  readonly reached: number;
  readonly edges: number;
  readonly warm: Timing;
  readonly cold: Timing;
  readonly plain: Timing;
}

interface GraphResult {
  readonly graph: string;
  readonly treatment: string;
  readonly vertices: number;
  readonly storedEntries: number;
  readonly searches: readonly SearchRow[];
  readonly warmMs: number;
  readonly coldMs: number;
  readonly plainMs: number;
  readonly mteps: number;
  readonly plainMteps: number;
  readonly multi: { readonly sources: number; readonly msbfsMs: number; readonly singlesMs: number } | undefined;
}

async function searches(g: CsrMatrix, ref: ReferenceAddon, sources: Int32Array): Promise<SearchRow[]> {
  const rowPtr = g.rowPtr as Int32Array;
  const depth = new Int32Array(g.rows);
  const plainDepth = new Int32Array(g.rows);
  const rows: SearchRow[] = [];
  for (let j = 0; j < sources.length; j++) {
    const s = sources[j]!;
    const r = await bfs(g, s, { out: { depth } });
    ref.plainBfs(g.rows, rowPtr, g.colIdx, s, plainDepth);
    sameDepths(`bfs from ${s}`, depth, plainDepth);
    const candidates: Candidate[] = [
      { name: 'warm', fn: () => bfs(g, s, { out: { depth } }), async: true },
      { name: 'cold', fn: () => bfs(g, s), async: true },
      { name: 'plain', fn: () => ref.plainBfs(g.rows, rowPtr, g.colIdx, s, plainDepth), async: false },
    ];
    // Rotate who goes first from one source to the next, so no implementation always runs on the cache the other left.
    const shift = j % candidates.length;
    const order = [...candidates.slice(shift), ...candidates.slice(0, shift)];
    const timed = await measure(order, SEARCH, 1);
    const by = (name: string): Timing => timed[order.findIndex((c) => c.name === name)]!;
    rows.push({ source: s, levels: r.frontier.length, reached: r.reached, edges: componentEdges(g, depth), warm: by('warm'), cold: by('cold'), plain: by('plain') });
  }
  return rows;
}

async function multiSource(g: CsrMatrix, ref: ReferenceAddon): Promise<GraphResult['multi']> {
  if (g.rows * MSBFS_SOURCES > 2 ** 28) return undefined;
  const sources = pickSources(g, Math.min(MSBFS_SOURCES, g.rows), 2);
  const first = await msbfs(g, sources);
  const plainDepth = new Int32Array(g.rows);
  for (const j of [0, sources.length - 1]) {
    ref.plainBfs(g.rows, g.rowPtr as Int32Array, g.colIdx, sources[j]!, plainDepth);
    sameDepths(`msbfs source ${sources[j]}`, first.depths, plainDepth, j * g.rows);
  }
  const depth = new Int32Array(g.rows);
  const [multi, singles] = await measure(
    [
      { name: 'msbfs', fn: () => msbfs(g, sources), async: true },
      {
        name: 'singles',
        fn: async () => {
          for (const s of sources) await bfs(g, s, { out: { depth } });
        },
        async: true,
      },
    ],
    MULTI,
  );
  return { sources: sources.length, msbfsMs: multi!.median, singlesMs: singles!.median };
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
  const only = args.only?.split(',').map((s) => s.trim());
  const unknown = only?.filter((n) => !GRAPHS.some((x) => x.name === n)) ?? [];
  if (unknown.length > 0) throw new Error(`--only: unknown input ${unknown.join(', ')} (known: ${GRAPHS.map((x) => x.name).join(', ')})`);
  const specs = GRAPHS.filter((g) => (only ? only.includes(g.name) : !quick || g.inQuick));
  const notes: string[] = [];
  const results: GraphResult[] = [];
  for (const spec of specs) {
    const made = await spec.make();
    if (typeof made === 'string') {
      progress(`bfs ${spec.name}: skipped, ${made}`);
      notes.push(`${spec.name} skipped: ${made}`);
      continue;
    }
    const { graph: g, treatment } = prepare(made);
    if (!(g.rowPtr instanceof Int32Array)) throw new Error(`${spec.name}: the plain BFS needs 32-bit row pointers`);
    progress(`bfs ${spec.name}: ${g.toString()} (${treatment}), ${sourceCount} sources`);
    const rows = await searches(g, ref, pickSources(g, sourceCount, 1));
    const multi = await multiSource(g, ref);
    const warmMs = median(rows.map((r) => r.warm.median));
    const result: GraphResult = {
      graph: spec.name,
      treatment,
      vertices: g.rows,
      storedEntries: g.nnz,
      searches: rows,
      warmMs,
      coldMs: median(rows.map((r) => r.cold.median)),
      plainMs: median(rows.map((r) => r.plain.median)),
      mteps: median(rows.map((r) => r.edges / (r.warm.median * 1e3))),
      plainMteps: median(rows.map((r) => r.edges / (r.plain.median * 1e3))),
      multi,
    };
    results.push(result);
    progress(`  dype ${ms(warmMs)} ms/search (${fixed(result.mteps, 0)} MTEPS), plain ${ms(result.plainMs)} ms` +
      (multi ? `; msbfs ${ms(multi.msbfsMs)} ms vs ${multi.sources} calls ${ms(multi.singlesMs)} ms` : ''));
    collectGarbage();
  }

  const tables: Table[] = [
    {
      title: `BFS per search: median over ${sourceCount} sources of each source's median (ms)`,
      columns: ['graph', 'vertices', 'stored entries', 'levels (median / max)', 'dype ms', 'dype cold ms', 'plain ms', 'plain/dype', 'dype MTEPS', 'plain MTEPS'],
      rows: results.map((r) => {
        const levels = r.searches.map((s) => s.levels);
        return [
          `${r.graph} (${r.treatment})`,
          String(r.vertices),
          String(r.storedEntries),
          `${median(levels)} / ${Math.max(...levels)}`,
          ms(r.warmMs),
          ms(r.coldMs),
          ms(r.plainMs),
          fixed(r.plainMs / r.warmMs),
          fixed(r.mteps, 0),
          fixed(r.plainMteps, 0),
        ];
      }),
    },
  ];
  const kron18 = results.find((r) => r.graph === 'kronecker-18');
  if (kron18) {
    tables.push({
      title: 'Kronecker scale 18 against the GAP benchmark suite (GAP figure published, not measured here)',
      columns: ['dype ms/search (measured)', 'GAP BFS ms/search (published)', 'GAP/dype'],
      rows: [[ms(kron18.warmMs), fixed(GAP_KRON18_MS, 1), fixed(GAP_KRON18_MS / kron18.warmMs)]],
    });
  }
  const withMulti = results.filter((r) => r.multi !== undefined);
  if (withMulti.length > 0) {
    tables.push({
      title: `Multi-source BFS: ${MSBFS_SOURCES} sources in one msbfs call against ${MSBFS_SOURCES} bfs calls (ms, medians)`,
      columns: ['graph', 'msbfs ms', `${MSBFS_SOURCES} x bfs ms`, 'speed-up'],
      rows: withMulti.map((r) => [r.graph, ms(r.multi!.msbfsMs), ms(r.multi!.singlesMs), fixed(r.multi!.singlesMs / r.multi!.msbfsMs)]),
    });
  }
  notes.push(
    `dype = await bfs(graph, source, { out: { depth } }) (direction-optimising, ${threads} threads, output reused); "cold" allocates a fresh depth array per search (page faults included); plain = serial queue BFS in C++ (bench/references), depth array reused, its queue allocated per call.`,
    'Per source, the three are timed in one tinybench run in an order that rotates from source to source; every source\'s dype depths were checked equal to the plain BFS\'s first.',
    'TEPS as in Graph500: edges of the reached component (undirected edges once: sum of the reached vertices\' row lengths / 2) over the search time, median over sources. Graphs have self-loops and duplicate edges removed.',
    args.directed
      ? 'Directed datasets (soc-Slashdot0902, email-Enron, wiki-Vote) are searched along out-edges; TEPS counts out-edges of reached vertices.'
      : 'Directed datasets (soc-Slashdot0902, email-Enron, wiki-Vote) are symmetrized (A + A^T), as Graph500 and GAP search undirected graphs; --directed searches them along out-edges instead.',
    `Kronecker graphs: Graph500 R-MAT (0.57, 0.19, 0.19), edge factor 16, seed 1, undirected. GAP figure: ${fixed(GAP_KRON18_MS, 1)} ms per search for the GAP benchmark suite's direction-optimising BFS on Kronecker scale 18 on the reference machine, a fixed published number.`,
  );
  const report: SuiteReport = {
    suite: 'bfs',
    title: `BFS${quick ? ' (quick mode)' : ''}`,
    date: new Date().toISOString(),
    machine,
    settings: { quick, sources: sourceCount, directed: args.directed, threads, search: SEARCH, multi: MULTI, gapKron18Ms: GAP_KRON18_MS },
    notes,
    tables,
    data: results,
  };
  emitReport(report, args.json, args.quiet);
}

await main();
