// SpMM Y = A * X (k dense columns) side by side: dype's public async spmm against Eigen 3.4's
// sparse * dense product, SuiteSparse:GraphBLAS's GrB_mxm and a plain OpenMP CSR loop, same
// threads, inputs and process, for every precision and k asked for.
// Run: node --expose-gc --import tsx bench/kernels/spmm.ts [--quick | --ci] [--k 8,32,128] [--precision f32,f64] [--only a,b] [--threads 1,2] [--no-graphblas]

import { parseArgs } from 'node:util';
import type { CsrMatrix } from '../../src/data/csr.js';
import { DenseMatrix, type Precision } from '../../src/data/dense.js';
import { denseFeatures } from '../../src/generators/index.js';
import { spmm } from '../../src/kernels/spmm.js';
import { nativeAddon } from '../../src/native/addon.js';
import { type GraphblasReference, graphblasOf, type GraphblasSpmm, loadReferences, type ReferenceAddon } from '../references/load.js';
import { loadDataset } from '../common/datasets.js';
import { boundNote, boundShares, CALL_WARMUP, type CacheLevel, cacheHierarchy, type CallCost, callCosts, levelTraffic } from './spmm-bounds.js';
import { verify, withValues } from './spmm-check.js';
import { collectGarbage, measurePaired, median, pairedRatio, type PairedSettings, type Timing } from '../common/measure.js';
import { runPerThreadCount, threadCounts } from './threads.js';
import { INPUTS } from './spmm-inputs.js';
import { emitReport, fixed, machineInfo, ms, progress, type SuiteReport, type Table } from '../common/report.js';

/** Inputs of 10k-100k stored entries whose whole call is timed against its kernel. */
const CALL_INPUTS = ['bcsstk13', 'pubmed', '4elt', 'facebook_combined', 'bayer10'];

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    ci: { type: 'boolean', default: false },
    k: { type: 'string', default: '8,32,128' },
    precision: { type: 'string', default: 'f32,f64' },
    only: { type: 'string' },
    json: { type: 'string' },
    quiet: { type: 'boolean', default: false },
    threads: { type: 'string' },
    'no-graphblas': { type: 'boolean', default: false },
  },
  strict: true,
});

const KS = args.k.split(',').map((t) => Number(t.trim()));
for (const k of KS) if (!Number.isInteger(k) || k < 1) throw new Error(`--k must be positive integers separated by commas, got ${args.k}`);
const PRECISIONS = args.precision.split(',').map((t) => t.trim());
for (const p of PRECISIONS) if (p !== 'f32' && p !== 'f64') throw new Error(`--precision must be f32, f64 or f32,f64, got ${args.precision}`);
if (args.quick && args.ci) throw new Error('--quick and --ci are different sizes: pass one');
/** full: every input, long runs; ci: the regression gate's size (small inputs, enough samples for stable medians); quick: a smoke run. */
const size: 'full' | 'ci' | 'quick' = args.ci ? 'ci' : args.quick ? 'quick' : 'full';
const quick = size !== 'full';
/** Dense X or Y above this many bytes is skipped (Kronecker 20 at k = 128 would need several GiB). */
const DENSE_LIMIT_BYTES = 2 ** 28;

const SETTINGS: PairedSettings = {
  full: { warmup: 3, minRounds: 15, maxRounds: 400, time: 2000 },
  ci: { warmup: 2, minRounds: 9, maxRounds: 200, time: 400 },
  quick: { warmup: 1, minRounds: 5, maxRounds: 50, time: 100 },
}[size];

interface Row {
  readonly input: string;
  readonly required: boolean;
  readonly rows: number;
  readonly cols: number;
  readonly nnz: number;
  readonly compulsoryBytes: number;
  /** Gather-aware traffic across each level (spmm-bounds.ts: from L2, from L3, from memory). */
  readonly levelBytes: readonly number[];
  /** The bytes from memory alone: the bound before it was priced per level. */
  readonly boundBytes: number;
  /** The per-level bound's time over dype's time. */
  readonly boundShare: number;
  /** The memory level's bytes at the triad bandwidth over dype's time: the old, memory-only figure. */
  readonly memoryBoundShare: number;
  /** Whether A, X and Y together exceed the process's cache share (where the bound is judged). */
  readonly largerThanCache: boolean;
  readonly dype: Timing;
  readonly eigen: Timing;
  readonly plain: Timing;
  /** Absent where the addon was built without GraphBLAS. */
  readonly graphblas: Timing | undefined;
  /** Eigen time / dype time, median over rounds of the per-round ratio: at least 1 when dype is at least as fast. */
  readonly ratio: number;
  readonly plainRatio: number;
  readonly graphblasRatio: number | undefined;
  /** Largest |difference| from Eigen's result seen (dype's, the plain loop's or GraphBLAS's), as a fraction of the tolerance. */
  readonly agreement: number;
}

/** One precision and k: every input's row and the medians over inputs. */
interface ConfigResult {
  readonly precision: Precision;
  readonly k: number;
  readonly rows: Row[];
  readonly summary: {
    readonly medianRatioRequired: number;
    readonly requiredMeasured: number;
    readonly medianRatioAll: number;
    readonly allMeasured: number;
    readonly medianGraphblasRatioAll: number;
    readonly medianPlainRatioAll: number;
  };
}

const medianOr = (xs: readonly number[]): number => (xs.length > 0 ? median(xs) : NaN);

function summarizeConfig(precision: Precision, k: number, rows: Row[]): ConfigResult {
  const required = rows.filter((r) => r.required).map((r) => r.ratio);
  const gb = rows.flatMap((r) => (r.graphblasRatio === undefined ? [] : [r.graphblasRatio]));
  return {
    precision,
    k,
    rows,
    summary: {
      medianRatioRequired: medianOr(required),
      requiredMeasured: required.length,
      medianRatioAll: medianOr(rows.map((r) => r.ratio)),
      allMeasured: rows.length,
      medianGraphblasRatioAll: medianOr(gb),
      medianPlainRatioAll: medianOr(rows.map((r) => r.plainRatio)),
    },
  };
}

interface Refs {
  readonly eigen: ReferenceAddon;
  readonly graphblas: GraphblasReference | undefined;
  readonly threads: number;
  /** This process's cache share in bytes. */
  readonly cacheBytes: number;
  /** The hierarchy the bound prices (spmm-bounds.ts), nearest first; the last is memory. */
  readonly levels: readonly CacheLevel[];
}

/** A row before its bound share is priced (the triad is known only at the end of the run). */
type Timed = Omit<Row, 'boundShare' | 'memoryBoundShare'>;

/** Verify, then time dype against every reference on one matrix, precision and k. */
async function compare(name: string, required: boolean, a: CsrMatrix, precision: Precision, k: number, refs: Refs): Promise<Timed> {
  const { eigen, graphblas, threads } = refs;
  const x = denseFeatures({ rows: a.cols, cols: k, seed: 7, precision });
  const out = DenseMatrix.zeros(a.rows, k, precision);
  const dense = (): Float32Array | Float64Array => (precision === 'f32' ? new Float32Array(a.rows * k) : new Float64Array(a.rows * k));
  const yEigen = dense();
  const yPlain = dense();
  const rowPtr = a.rowPtr as Int32Array;
  const values = a.values as Float32Array | Float64Array;
  const runEigen = (): void => eigen.eigenSpmm(a.rows, a.cols, rowPtr, a.colIdx, values, x.data, k, yEigen, threads);
  const runPlain = (): void => eigen.plainSpmm(a.rows, a.cols, rowPtr, a.colIdx, values, x.data, k, yPlain, threads);
  let gb: GraphblasSpmm | undefined;
  try {
    await spmm(a, x, { out });
    runEigen();
    runPlain();
    let agreement = Math.max(
      verify(`${name}: dype and Eigen`, a, x, k, out.data, yEigen),
      verify(`${name}: the plain loop and Eigen`, a, x, k, yPlain, yEigen),
    );
    if (graphblas) {
      gb = new graphblas.Spmm(rowPtr, a.colIdx, values, a.cols, x.data, k);
      gb.run();
      const yGb = dense();
      gb.read(yGb);
      agreement = Math.max(agreement, verify(`${name}: GraphBLAS and Eigen`, a, x, k, yGb, yEigen));
    }
    const g = gb;
    const candidates = [
      { name: 'dype', fn: () => spmm(a, x, { out }), async: true },
      { name: 'eigen', fn: runEigen, async: false },
      { name: 'plain', fn: runPlain, async: false },
      ...(g ? [{ name: 'graphblas', fn: () => g.run(), async: false }] : []),
    ];
    const { timings, samples } = await measurePaired(candidates, SETTINGS);
    const [dype, ref, plain, grb] = timings;
    const against = (i: number): number => pairedRatio(samples[i]!, samples[0]!);
    const eb = precision === 'f32' ? 4 : 8;
    const traffic = levelTraffic(a, k, eb, refs.levels, threads);
    const compulsoryBytes = traffic.compulsory;
    const row: Timed = {
      input: name,
      required,
      rows: a.rows,
      cols: a.cols,
      nnz: a.nnz,
      compulsoryBytes,
      levelBytes: traffic.bytes,
      boundBytes: traffic.bytes[traffic.bytes.length - 1]!,
      largerThanCache: compulsoryBytes > refs.cacheBytes,
      dype: dype!,
      eigen: ref!,
      plain: plain!,
      graphblas: grb,
      ratio: against(1),
      plainRatio: against(2),
      graphblasRatio: grb ? against(3) : undefined,
      agreement,
    };
    progress(
      `  ${precision} k=${k}: dype ${ms(dype!.median)} ms, eigen ${ms(ref!.median)}, plain ${ms(plain!.median)}` +
        (grb ? `, graphblas ${ms(grb.median)}` : '') +
        `; eigen/dype ${fixed(row.ratio)}` +
        (grb ? `, graphblas/dype ${fixed(row.graphblasRatio!)}` : ''),
    );
    return row;
  } finally {
    gb?.free();
  }
}

async function main(): Promise<void> {
  const machine = machineInfo();
  const loaded = loadReferences();
  if (loaded.addon === undefined) {
    progress(`spmm: skipped, ${loaded.reason}`);
    process.exit(0);
  }
  const threads = nativeAddon().threads();
  const gbLoaded = graphblasOf(loaded.addon, threads);
  const notes: string[] = [];
  if (gbLoaded.graphblas === undefined) {
    progress(`spmm: ${gbLoaded.reason}`);
    notes.push(`GraphBLAS: ${gbLoaded.reason}.`);
  }
  const cacheBytes = nativeAddon().cacheShareBytes();
  const hierarchy = cacheHierarchy(loaded.addon, threads, nativeAddon().l2CacheBytes(), cacheBytes);
  const pricesAtStart = hierarchy.price();
  const gbsText = (gbs: readonly number[]): string => gbs.map((g, i) => `${hierarchy.levels[i]!.source} ${fixed(g, 1)}`).join(', ');
  progress(`spmm: GB/s from ${gbsText(pricesAtStart)} with ${threads} threads; cache share ${fixed(cacheBytes / 2 ** 20, 1)} MiB`);
  // GraphBLAS's mxm is the slowest side by 3-8x and takes most of a full run: --no-graphblas leaves it out.
  const refs: Refs = { eigen: loaded.addon, graphblas: args['no-graphblas'] ? undefined : gbLoaded.graphblas, threads, cacheBytes, levels: hierarchy.levels };
  const only = args.only?.split(',').map((s) => s.trim());
  const unknown = only?.filter((n) => !INPUTS.some((x) => x.name === n)) ?? [];
  if (unknown.length > 0) throw new Error(`--only: unknown input ${unknown.join(', ')} (known: ${INPUTS.map((x) => x.name).join(', ')})`);
  const inputs = INPUTS.filter((i) => (only ? only.includes(i.name) : i.sizes.includes(size)));
  const configs = PRECISIONS.flatMap((precision) => KS.map((k) => ({ precision: precision as Precision, k })));
  const timedOf = configs.map((): Timed[] => []);
  for (const input of inputs) {
    const made = await input.make();
    if (typeof made === 'string') {
      progress(`spmm ${input.name}: skipped, ${made}`);
      notes.push(`${input.name} skipped: ${made}`);
      continue;
    }
    progress(`spmm ${input.name}: ${made.toString()}`);
    for (const [i, { precision, k }] of configs.entries()) {
      const eb = precision === 'f32' ? 4 : 8;
      if (Math.max(made.rows, made.cols) * k * eb > DENSE_LIMIT_BYTES) {
        notes.push(`${input.name} ${precision} k=${k} skipped: a dense operand would exceed ${DENSE_LIMIT_BYTES / 2 ** 20} MiB.`);
        continue;
      }
      timedOf[i]!.push(await compare(input.name, input.required, withValues(made, precision), precision, k, refs));
      collectGarbage();
    }
  }

  // The bound's bandwidth is the best triad at the start or the end of the run (bestTriad says
  // why): two CI runs an hour apart priced it at 43.6 and 71.6 GB/s at two threads, SpMM's own
  // times alike, and the low one had put dype at 65% of the bound where it was at 35%.
  const pricesAtEnd = hierarchy.price();
  const prices = pricesAtStart.map((g, i) => Math.max(g, pricesAtEnd[i]!));
  const boundTriad = prices[prices.length - 1]!;
  progress(`spmm: GB/s at the end ${gbsText(pricesAtEnd)}; the bound is priced at ${gbsText(prices)}`);
  const rowsOf = timedOf.map((rows): Row[] => rows.map((r) => ({ ...r, ...boundShares(r, r.dype.median / 1e3, prices) })));
  const results = configs.map(({ precision, k }, i) => summarizeConfig(precision, k, rowsOf[i]!));
  const all = results.flatMap((c) => c.rows);
  const large = all.filter((r) => r.largerThanCache);
  const calls: CallCost[] = [];
  for (const name of CALL_INPUTS) {
    const r = await loadDataset(name, 'f32');
    if (r.matrix) calls.push(...(await callCosts(name, r.matrix, quick ? 20 : 100)));
  }
  const summary = {
    minEigenRatio: all.length > 0 ? Math.min(...all.map((r) => r.ratio)) : NaN,
    medianBoundShareLarge: medianOr(large.map((r) => r.boundShare)),
    minBoundShareLarge: large.length > 0 ? Math.min(...large.map((r) => r.boundShare)) : NaN,
    medianMemoryBoundShareLarge: medianOr(large.map((r) => r.memoryBoundShare)),
    levelGBs: prices,
    largeMeasured: large.length,
    worstCallRatio: calls.length > 0 ? Math.max(...calls.map((c) => c.ratio)) : NaN,
    medianCallRatio: medianOr(calls.map((c) => c.ratio)),
    triadGBs: boundTriad,
    medianEigenRatio: medianOr(all.map((r) => r.ratio)),
    medianGraphblasRatio: medianOr(all.flatMap((r) => (r.graphblasRatio === undefined ? [] : [r.graphblasRatio]))),
    medianPlainRatio: medianOr(all.map((r) => r.plainRatio)),
    measured: all.length,
  };
  const eigenVersion = refs.eigen.eigenVersion;
  const gbVersion = refs.graphblas?.version;
  notes.push(
    `Over all ${summary.measured} (input, precision, k) measurements, median eigen/dype ${fixed(summary.medianEigenRatio)}, graphblas/dype ${fixed(summary.medianGraphblasRatio)}, plain/dype ${fixed(summary.medianPlainRatio)} (>= 1: dype at least as fast).`,
    ...results.map(
      (c) =>
        `${c.precision} k=${c.k}: median eigen/dype over the ${c.summary.requiredMeasured} real datasets ${fixed(c.summary.medianRatioRequired)}, over all ${c.summary.allMeasured} inputs ${fixed(c.summary.medianRatioAll)}; graphblas/dype ${fixed(c.summary.medianGraphblasRatioAll)}.`,
    ),
    `dype = await spmm(a, x, { out }) (public async API: validation and the AsyncWorker round trip, about 35 µs, are inside its time); eigen = Eigen ${eigenVersion} Map<SparseMatrix<RowMajor>> * Map<Matrix<RowMajor>>, synchronous, OpenMP with ${threads} threads (dype's thread count); plain = the textbook OpenMP row loop over CSR (dynamic chunks of 64 rows, k-wide update vectorised by the compiler), same threads.`,
    gbVersion
      ? `graphblas = SuiteSparse:GraphBLAS ${gbVersion} GrB_mxm(C, A, X) over PLUS_TIMES with GxB_NTHREADS = ${threads}, then GrB_wait; A (CSR) and X (full, row-major) are converted once before timing and C is reused, so the time is the product alone (copying C out to a user array is not included).`
      : 'graphblas: not built here.',
    `Timing is paired: one timed call of each implementation per round, each right after an untimed call of itself (so each runs on the cache it leaves itself, not on its neighbour's), the order rotating and reversing between rounds, at least ${SETTINGS.minRounds} rounds and ${SETTINGS.time} ms (after ${SETTINGS.warmup} warm-up calls each); a ratio is the median over rounds of that round's ratio, which cancels most of a shared machine's changing load. ms columns: median ± median absolute deviation.`,
    'OpenMP workers spin-wait after each call by default: on a machine with other load the 2-thread reference figures become erratic (OMP_WAIT_POLICY=passive steadies them).',
    boundNote(hierarchy.levels, prices, threads, summary.medianMemoryBoundShareLarge),
    `Small calls: await of the public call (spmv, spmm k = 8, bfs) against the kernel time the native call reports, on inputs of 10k-100k entries, after ${CALL_WARMUP} warm-up calls (the JIT's steady state); median over rounds of each call's ratio.`,
    "Pattern matrices carry explicit all-ones values so every side does identical work; every output was checked to agree with Eigen's before timing.",
  );
  const spread = (t: Timing | undefined): string => (t ? `${ms(t.median)} ± ${ms(t.mad)}` : 'n/a');
  const tables: Table[] = results.map((c) => {
    const gflops = (r: Row, t: number): number => (2 * r.nnz * c.k) / (t * 1e6);
    return {
      title: `SpMM ${c.precision} k=${c.k}: dype vs Eigen, GraphBLAS and a plain OpenMP loop (ms: median ± MAD)`,
      columns: [
        'input',
        'rows',
        'nnz',
        'dype ms',
        'eigen ms',
        'eigen/dype',
        'graphblas ms',
        'graphblas/dype',
        'plain ms',
        'plain/dype',
        'dype GFLOP/s',
        '% of gather-aware bound',
        '% of memory-only bound',
      ],
      rows: c.rows.map((r) => [
        r.required ? r.input : `${r.input} (generated)`,
        String(r.rows),
        String(r.nnz),
        spread(r.dype),
        spread(r.eigen),
        fixed(r.ratio),
        spread(r.graphblas),
        r.graphblasRatio === undefined ? 'n/a' : fixed(r.graphblasRatio),
        spread(r.plain),
        fixed(r.plainRatio),
        fixed(gflops(r, r.dype.median), 1),
        `${fixed(100 * r.boundShare, 0)}%${r.largerThanCache ? '' : ' (in cache)'}`,
        `${fixed(100 * r.memoryBoundShare, 0)}%`,
      ]),
    };
  });
  tables.push({
    title: 'Medians over inputs (>= 1: dype at least as fast)',
    columns: ['precision', 'k', 'inputs', 'eigen/dype', 'eigen/dype (real datasets)', 'graphblas/dype', 'plain/dype'],
    rows: results.map((c) => [
      c.precision,
      String(c.k),
      String(c.summary.allMeasured),
      fixed(c.summary.medianRatioAll),
      fixed(c.summary.medianRatioRequired),
      fixed(c.summary.medianGraphblasRatioAll),
      fixed(c.summary.medianPlainRatioAll),
    ]),
  });
  tables.push({
    title: 'Against the gather-aware bound, inputs larger than the cache share; no input below 1.0x Eigen',
    columns: ['inputs judged', '% of bound (median)', '% of bound (lowest)', '% of memory-only bound (median)', 'lowest eigen/dype (all inputs)'],
    rows: [
      [
        String(summary.largeMeasured),
        fixed(100 * summary.medianBoundShareLarge, 0),
        fixed(100 * summary.minBoundShareLarge, 0),
        fixed(100 * summary.medianMemoryBoundShareLarge, 0),
        fixed(summary.minEigenRatio),
      ],
    ],
  });
  if (calls.length > 0) {
    tables.push({
      title: 'Small calls: the whole awaited call against its kernel (inputs of 10k-100k entries)',
      columns: ['input', 'entries', 'call', 'call ms', 'kernel ms', 'call/kernel'],
      rows: calls.map((c) => [c.input, String(c.entries), c.op, ms(c.callMs), ms(c.kernelMs), fixed(c.ratio)]),
    });
  }
  const report: SuiteReport = {
    suite: 'spmm',
    title: `SpMM, ${PRECISIONS.join('/').toUpperCase()}, k = ${KS.join(', ')}${size === 'full' ? '' : ` (${size} size)`}`,
    date: new Date().toISOString(),
    machine,
    settings: {
      size,
      quick,
      ks: KS,
      precisions: PRECISIONS,
      threads,
      timing: SETTINGS,
      triadGBs: boundTriad,
      cacheBytes,
      eigen: eigenVersion,
      graphblas: gbVersion ?? null,
    },
    notes,
    tables,
    data: { configs: results, summary, calls },
  };
  emitReport(report, args.json, args.quiet);
}

const counts = threadCounts(args.threads);
if (counts !== undefined && (counts.length > 1 || String(counts[0]) !== process.env['DYPE_THREADS'])) {
  emitReport(runPerThreadCount(import.meta.url, process.argv.slice(2), counts), args.json, args.quiet);
} else {
  await main();
}
