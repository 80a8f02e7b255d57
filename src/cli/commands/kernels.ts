// `dype kernels`: load or generate a graph, run the native CPU kernels (SpMM, SpMV, BFS,
// multi-source BFS) on it and print measured times and rates.

import type { CsrMatrix } from '../../data/csr.js';
import { DenseMatrix, type Precision } from '../../data/dense.js';
import { InvalidArgumentError } from '../../errors.js';
import { denseFeatures } from '../../generators/index.js';
import { bfs } from '../../kernels/bfs.js';
import { msbfs } from '../../kernels/msbfs.js';
import { spmm } from '../../kernels/spmm.js';
import { spmv } from '../../kernels/spmv.js';
import { nativeAddon } from '../../native/addon.js';
import { INPUT_FLAGS, inputFlagsHelp, inputRequest, loadInput } from '../input.js';
import { choiceFlag, intFlag, parseFlags } from '../parse.js';
import { formatCount, formatMs, formatRate, formatTable } from '../table.js';
import { median } from '../../stats.js';

export const KERNELS_HELP = `Usage: dype kernels [--data FILE | --generate SPEC] [options]

Run dype's native CPU kernels on one graph and print measured times.

${inputFlagsHelp()}

Options:
  --k N                width of the dense matrix for SpMM (default 32)
  --precision P        f32 or f64 (default f32)
  --sources N          BFS searches to time, from distinct sources (default 16)
  --repeats N          timed repetitions of each SpMM/SpMV, median kept (default 10)
  --json               print one JSON object instead of tables
  -h, --help           show this help

Every figure is measured on this machine (wall time of the native kernel call, medians).

Examples:
  dype kernels
  dype kernels --generate kron18 --k 64
  dype kernels --generate grid:rows=1000,cols=1000,deleteFraction=0.2
  dype kernels --data ../shared/datasets/soc-Slashdot0902.mtx --json`;

const FLAGS = {
  ...INPUT_FLAGS,
  k: { type: 'string' },
  precision: { type: 'string' },
  sources: { type: 'string' },
  repeats: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  verbose: { type: 'boolean' },
} as const;

async function timeIt(repeat: number, f: () => Promise<unknown>): Promise<number> {
  await f(); // warm-up: first touch of outputs, thread pool start
  const times: number[] = [];
  for (let i = 0; i < repeat; i++) {
    const t = performance.now();
    await f();
    times.push(performance.now() - t);
  }
  return median(times);
}

/**
 * Deterministic, spread-out sources with at least one edge (Graph500 skips isolated roots). The
 * stride walk visits only multiples of gcd(stride * 7919, rows), so where it finds too few the
 * rest come from a scan in vertex order: a 195-vertex graph whose edges joined vertices 1, 2, 4
 * and 5 got no source at all ("bfs: source must be an integer, got undefined").
 */
function pickSources(g: CsrMatrix, count: number): Int32Array {
  const out = new Set<number>();
  let v = 0;
  const stride = Math.max(1, Math.floor(g.rows / (count * 4 + 1))) | 1;
  for (let tries = 0; out.size < count && tries < g.rows; tries++) {
    v = (v + stride * 7919) % g.rows;
    if (g.rowLength(v) > 0) out.add(v);
  }
  for (let u = 0; out.size < count && u < g.rows; u++) if (g.rowLength(u) > 0) out.add(u);
  return Int32Array.from(out);
}

export async function kernelsCommand(argv: readonly string[], write: (s: string) => void): Promise<void> {
  const { values } = parseFlags('kernels', argv, FLAGS);
  if (values['help']) {
    write(KERNELS_HELP);
    return;
  }
  const k = intFlag('kernels', 'k', values['k'], 32, 1, 4096);
  const precision = choiceFlag<Precision>('kernels', 'precision', values['precision'], 'f32', ['f32', 'f64']);
  const sourceCount = intFlag('kernels', 'sources', values['sources'], 16, 1, 4096);
  const repeat = intFlag('kernels', 'repeats', values['repeats'], 10, 1, 10_000);
  const input = await loadInput('kernels', inputRequest(values));
  const a = input.matrix;
  // Nothing to time: an empty input printed "0.00 FLOP/s", and one with vertices but no edges
  // failed in BFS ("bfs: source must be an integer, got undefined").
  if (a.nnz === 0) {
    throw new InvalidArgumentError(
      `kernels: ${input.label} has no stored entries (${formatCount(a.rows)} x ${formatCount(a.cols)}, 0 nonzeros): there is nothing for the kernels to compute`,
    );
  }

  const x = denseFeatures({ rows: a.cols, cols: k, precision, seed: 1 });
  const out = DenseMatrix.zeros(a.rows, k, precision);
  const spmmMs = await timeIt(repeat, () => spmm(a, x, { out }));
  const vec = denseFeatures({ rows: a.cols, cols: 1, precision, seed: 2 }).data;
  const spmvMs = await timeIt(repeat, () => spmv(a, vec));
  const elem = precision === 'f32' ? 4 : 8;
  const matrixBytes = (a.rows + 1) * (a.wideRowPtr ? 8 : 4) + a.nnz * 4 + (a.values ? a.nnz * a.values.BYTES_PER_ELEMENT : 0);
  const spmmBytes = matrixBytes + (a.cols + a.rows) * k * elem;

  const result: Record<string, unknown> = {
    command: 'kernels',
    input: { label: input.label, origin: input.origin, rows: a.rows, cols: a.cols, nnz: a.nnz, symmetric: a.symmetric, loadMs: input.ms },
    threads: nativeAddon().threads(),
    source: 'measured',
    spmm: { k, precision, medianMs: spmmMs, gflops: (2 * a.nnz * k) / (spmmMs * 1e6), effectiveGBps: spmmBytes / (spmmMs * 1e6) },
    spmv: { precision, medianMs: spmvMs, gflops: (2 * a.nnz) / (spmvMs * 1e6) },
  };

  if (a.rows === a.cols && a.rows > 0) {
    const sources = pickSources(a, sourceCount);
    const times: number[] = [];
    const teps: number[] = [];
    let levels = 0;
    await bfs(a, sources[0]!); // warm-up (and the transpose for directed graphs)
    for (const s of sources) {
      const t = performance.now();
      const r = await bfs(a, s);
      const ms = performance.now() - t;
      times.push(ms);
      // Graph500 TEPS: edges of the reached component over time, undirected edges counted once.
      let edges = 0;
      for (let v = 0; v < a.rows; v++) if (r.depth[v]! >= 0) edges += a.rowLength(v);
      teps.push((a.symmetric ? edges / 2 : edges) / (ms / 1000));
      levels = Math.max(levels, r.frontier.length);
    }
    const t = performance.now();
    await msbfs(a, sources);
    const msMs = performance.now() - t;
    result['bfs'] = { searches: sources.length, medianMs: median(times), medianTeps: median(teps), maxLevels: levels };
    result['msbfs'] = { sources: sources.length, totalMs: msMs, perSourceMs: msMs / sources.length };
  }

  if (values['json']) {
    write(JSON.stringify(result, null, 2));
    return;
  }
  const inp = result['input'] as { rows: number; cols: number; nnz: number };
  write(
    `${input.label}: ${formatCount(inp.rows)} x ${formatCount(inp.cols)}, ${formatCount(inp.nnz)} nonzeros` +
      `${a.symmetric ? ', undirected' : ''} (${input.origin === 'file' ? 'loaded' : 'generated'} in ${formatMs(input.ms)})`,
  );
  write(`native CPU kernels, ${result['threads']} threads, all figures measured (median of ${repeat} runs)\n`);
  const rows: string[][] = [
    [
      `SpMM ${precision} k=${k}`,
      formatMs(spmmMs),
      formatRate((2 * a.nnz * k) / (spmmMs / 1000), 'FLOP/s'),
      `${(spmmBytes / (spmmMs * 1e6)).toFixed(1)} GB/s effective (compulsory bytes / time)`,
    ],
    [`SpMV ${precision}`, formatMs(spmvMs), formatRate((2 * a.nnz) / (spmvMs / 1000), 'FLOP/s'), ''],
  ];
  const b = result['bfs'] as { searches: number; medianMs: number; medianTeps: number; maxLevels: number } | undefined;
  const m = result['msbfs'] as { sources: number; totalMs: number; perSourceMs: number } | undefined;
  if (b && m) {
    rows.push([`BFS (${b.searches} sources)`, formatMs(b.medianMs), formatRate(b.medianTeps, 'TEPS'), `${b.maxLevels} levels`]);
    rows.push([`multi-source BFS (${m.sources})`, formatMs(m.totalMs), `${formatMs(m.perSourceMs)} per source`, '']);
  }
  write(formatTable(['kernel', 'time', 'rate', 'notes'], rows));
}
