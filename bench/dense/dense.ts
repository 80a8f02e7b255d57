// The dense suite (issue 20): dype's GEMM against OpenBLAS called directly and numpy on the GCN
// feature-transform shapes; element-wise passes against the memory bandwidth measured in the same
// run; a GCN and a GraphSAGE forward on the CPU alone against their kernels back to back. One
// thread count per process (the pool's size is fixed at start), as the other kernel suites.
// Run: node --expose-gc --import tsx bench/dense/dense.ts [--quick | --ci] [--threads 1,2] [--no-numpy] [--json FILE]

import { parseArgs } from 'node:util';
import { buildSystem } from '../../src/devices/system.js';
import { generate } from '../../src/generators/index.js';
import { gemmLibrary } from '../../src/kernels/dense.js';
import { nativeAddon } from '../../src/native/addon.js';
import { median, type PairedSettings } from '../common/measure.js';
import { emitReport, fixed, machineInfo, progress, type SuiteReport } from '../common/report.js';
import { runPerThreadCount, threadCounts } from '../kernels/threads.js';
import { bestTriad, loadReferences } from '../references/load.js';
import { measureElementwise } from './elementwise.js';
import { measureForward } from './forward.js';
import { gemmShapes, measureGemm, numpyTimes, type GemmRow } from './gemm.js';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    ci: { type: 'boolean', default: false },
    threads: { type: 'string' },
    'no-numpy': { type: 'boolean', default: false },
    json: { type: 'string' },
    quiet: { type: 'boolean', default: false },
  },
  strict: true,
});
const profile = args.ci ? 'ci' : args.quick ? 'quick' : 'full';
const SETTINGS: PairedSettings =
  profile === 'full' ? { warmup: 2, minRounds: 9, maxRounds: 40, time: 1500 } : { warmup: 1, minRounds: 7, maxRounds: 20, time: 500 };
// A forward's rounds move +-30% on the 2-vCPU VM (one operator 2-4x between consecutive runs),
// so the median of 7 per-round ratios ranged 0.90-1.36 over runs of one build; 21 narrow it.
const FORWARD_SETTINGS: PairedSettings = { ...SETTINGS, minRounds: 21, maxRounds: 41 };

const medianOr = (xs: readonly number[]): number => (xs.length > 0 ? median(xs) : NaN);

async function main(): Promise<void> {
  const machine = machineInfo();
  const loaded = loadReferences();
  if (loaded.addon === undefined) {
    progress(`dense: skipped, ${loaded.reason}`);
    process.exit(0);
  }
  const refs = loaded.addon;
  const threads = nativeAddon().threads();
  const gemmInfo = gemmLibrary();
  const notes: string[] = [];
  const triadGBs = bestTriad(refs, threads);
  const cacheBytes = nativeAddon().cacheShareBytes();
  progress(`dense: ${threads} threads, triad ${fixed(triadGBs, 1)} GB/s, GEMM: ${gemmInfo.library} ${gemmInfo.version} ${gemmInfo.reason}`);
  if (refs.blasGemm === undefined)
    notes.push('OpenBLAS columns n/a: the reference addon was built without OpenBLAS (install libopenblas-dev, then DYPE_REBUILD_REFERENCES=1).');

  const shapes = gemmShapes(profile);
  const measured = await measureGemm(shapes, refs, threads, SETTINGS);
  const numpy = args['no-numpy'] ? { reason: '--no-numpy' } : numpyTimes(shapes, threads, profile === 'full' ? 9 : 5);
  if ('reason' in numpy) notes.push(`numpy columns n/a: ${numpy.reason}.`);
  const gemm: GemmRow[] = measured.map((r, i) => {
    const s = 'seconds' in numpy ? numpy.seconds[i]! : undefined;
    return { ...r, numpyMs: s === undefined ? null : s * 1e3, numpyRatio: s === undefined ? null : (s * 1e3) / r.dypeMs };
  });

  // Arrays at least 4x the cache share, so every pass streams from memory.
  const elements = Math.max(2 ** 22, 2 ** Math.ceil(Math.log2((4 * cacheBytes) / 4)));
  const elementwise = await measureElementwise(elements, triadGBs, SETTINGS);

  const scale = profile === 'full' ? 18 : 16;
  const graph = generate({ kind: 'kronecker', scale, edgeFactor: 16, seed: 1 });
  const system = buildSystem({ name: 'cpu-only', devices: [{ name: 'cpu', backend: 'cpu' }] }, 'dense bench');
  const forward = await measureForward(['gcn', 'sage'], graph, system, FORWARD_SETTINGS);

  const blasRatios = gemm.flatMap((r) => (r.blasRatio === null ? [] : [r.blasRatio]));
  const numpyRatios = gemm.flatMap((r) => (r.numpyRatio === null ? [] : [r.numpyRatio]));
  const summary = {
    medianBlasRatio: medianOr(blasRatios),
    minBlasRatio: blasRatios.length > 0 ? Math.min(...blasRatios) : NaN,
    medianNumpyRatio: medianOr(numpyRatios),
    medianBoundShare: medianOr(elementwise.map((e) => e.boundShare)),
    minBoundShare: Math.min(...elementwise.map((e) => e.boundShare)),
    worstForwardRatio: Math.max(...forward.map((f) => f.ratio)),
  };
  const pct = (x: number): string => `${fixed(100 * x, 0)}%`;
  const report: SuiteReport = {
    suite: 'dense',
    title: `Dense operators: GEMM, element-wise passes and GNN forwards (${threads} thread${threads === 1 ? '' : 's'})`,
    date: new Date().toISOString(),
    machine,
    settings: {
      profile,
      threads,
      triadGBs,
      cacheBytes,
      elements,
      graph: `kronecker scale ${scale}, edge factor 16`,
      timing: SETTINGS,
      forwardTiming: FORWARD_SETTINGS,
      gemm: gemmInfo,
      openblasCore: refs.blasCore ?? null,
      numpy: 'version' in numpy ? numpy.version : null,
    },
    notes: [
      `dype's GEMM: ${gemmInfo.library === 'openblas' ? `OpenBLAS ${gemmInfo.version}, ${gemmInfo.threading}` : `the built-in blocked kernel (${gemmInfo.reason})`}. dype = the addon's gemm binding into a preallocated output, called as nativeGemm calls it (native checks included; products under 2^24 flops run on the calling thread, larger ones on a libuv worker, the round trip included); openblas = cblas_?gemm on the whole product with OpenBLAS's own ${threads} thread(s), synchronous (its kernels: ${refs.blasCore ?? 'n/a'}); numpy = np.matmul(x, w, out=y) in a child process with OPENBLAS_NUM_THREADS=${threads}.`,
      "Ratios: openblas/dype is the median over paired rounds of OpenBLAS time / dype time; numpy/dype is numpy's median / dype's median (different processes). >= 1: dype at least as fast. The goal: openblas/dype >= 0.9 (median over shapes).",
      `Element-wise: ${elements} elements (>= 4x the cache share of ${fixed(cacheBytes / 2 ** 20, 1)} MiB), rows of 64, preallocated outputs; GB/s counts each operand read once and the output written once (STREAM's convention, no write-allocate), against the triad measured in this run (${fixed(triadGBs, 1)} GB/s). The goal: >= 70%.`,
      'Forward: runPlan (default options) of the workload on a CPU-only system against the same operators run back to back through runPiece; run/kernels is the median over paired rounds. The goal: <= 1.15.',
      ...notes,
    ],
    tables: [
      {
        title: 'GEMM',
        columns: ['shape', 'precision', 'dype ms', 'GFLOP/s', 'openblas ms', 'openblas/dype', 'numpy ms', 'numpy/dype'],
        rows: gemm.map((r) => [
          `${r.m}x${r.k}x${r.n}`,
          r.precision,
          fixed(r.dypeMs, 2),
          fixed(r.dypeGflops, 1),
          r.blasMs === null ? 'n/a' : fixed(r.blasMs, 2),
          r.blasRatio === null ? 'n/a' : fixed(r.blasRatio, 2),
          r.numpyMs === null ? 'n/a' : fixed(r.numpyMs, 2),
          r.numpyRatio === null ? 'n/a' : fixed(r.numpyRatio, 2),
        ]),
      },
      {
        title: 'Element-wise passes against the triad bound',
        columns: ['pass', 'precision', 'call ms', 'GB/s', '% of triad', 'kernel ms', 'kernel % of triad'],
        rows: elementwise.map((e) => [e.op, e.precision, fixed(e.ms, 2), fixed(e.gbs, 1), pct(e.boundShare), fixed(e.kernelMs, 2), pct(e.kernelBoundShare)]),
      },
      {
        title: 'GNN forward on the CPU alone',
        columns: ['workload', 'operators', 'kernels ms', 'runPlan ms', 'run/kernels'],
        rows: forward.map((f) => [f.workload, String(f.operators), fixed(f.kernelsMs, 2), fixed(f.runMs, 2), fixed(f.ratio, 3)]),
      },
      {
        title: 'Summary',
        columns: ['openblas/dype (median)', 'lowest', 'numpy/dype (median)', 'element-wise % of triad (median)', 'lowest', 'forward run/kernels (worst)'],
        rows: [
          [
            fixed(summary.medianBlasRatio, 2),
            fixed(summary.minBlasRatio, 2),
            fixed(summary.medianNumpyRatio, 2),
            pct(summary.medianBoundShare),
            pct(summary.minBoundShare),
            fixed(summary.worstForwardRatio, 3),
          ],
        ],
      },
    ],
    data: { gemm, elementwise, forward, summary },
  };
  emitReport(report, args.json, args.quiet);
}

const counts = threadCounts(args.threads);
if (counts !== undefined && (counts.length > 1 || String(counts[0]) !== process.env['DYPE_THREADS'])) {
  emitReport(runPerThreadCount(import.meta.url, process.argv.slice(2), counts), args.json, args.quiet);
} else {
  await main();
}
