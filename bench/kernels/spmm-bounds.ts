// What an SpMM could cost at best on this machine, and what a small call costs beyond its kernel:
// the gather-aware traffic bound (compulsory bytes plus the X lines a cache of the process's size
// would still miss, from the reuse distances the feature engine computes), the STREAM-style
// bandwidth it is priced at (measured in the same run), and whole call against kernel time on
// inputs of 10k-100k entries. Helpers of spmm.ts; not a suite of their own.

import type { CsrMatrix } from '../../src/data/csr.js';
import { DenseMatrix } from '../../src/data/dense.js';
import { denseFeatures } from '../../src/generators/index.js';
import { matrixFeatures } from '../../src/cost/features.js';
import { spmmTimed } from '../../src/kernels/spmm.js';
import { spmvTimed } from '../../src/kernels/spmv.js';
import { bfs } from '../../src/kernels/bfs.js';
import { median } from '../common/measure.js';

/**
 * Bytes an SpMM Y = A X must move with a perfect cache of `cacheBytes`: rowPtr, colIdx, values,
 * Y once and X once (compulsory), plus a cache line (or k values, whichever is more) for every
 * gather of an X row last touched more than R gathers ago, R = the rows of X the cache holds.
 * The reuse histogram counts distance in gathers, which over-counts distinct rows, so the bound
 * errs toward more traffic; matrices the engine sampled are scaled to their nnz.
 */
export function gatherAwareBytes(a: CsrMatrix, k: number, elementBytes: number, cacheBytes: number): { compulsory: number; bound: number; missRatio: number } {
  const compulsory = 4 * (a.rows + 1) + 4 * a.nnz + elementBytes * a.nnz + elementBytes * a.cols * k + elementBytes * a.rows * k;
  const rowBytes = k * elementBytes;
  const lineBytes = Math.ceil(rowBytes / 64) * 64;
  const held = Math.max(1, cacheBytes / lineBytes);
  const { columns, entries } = matrixFeatures(a).reuse;
  let misses = 0;
  // Bucket b >= 1 holds distances in [2^(b-1), 2^b); bucket 0 (first touches) is compulsory.
  for (let b = 1; b < columns.length; b++) {
    const lo = 2 ** (b - 1);
    const hi = 2 ** b;
    const share = hi <= held ? 0 : lo >= held ? 1 : (hi - held) / (hi - lo);
    misses += columns[b]! * share;
  }
  const scale = entries > 0 ? a.nnz / entries : 0;
  return { compulsory, bound: compulsory + misses * scale * lineBytes, missRatio: a.nnz > 0 ? (misses * scale) / a.nnz : 0 };
}

/**
 * Calls before the timed ones: the steady state a loop of calls reaches. After five, the checks
 * around the native call still ran unoptimised (facebook_combined's BFS: 1.11 of its kernel
 * after five, 1.08 once the JIT had compiled them); a process's first calls cost that more.
 */
export const CALL_WARMUP = 200;

/** One small-call measurement: whole awaited call against the kernel's own reported time. */
export interface CallCost {
  readonly input: string;
  readonly entries: number;
  readonly op: string;
  readonly callMs: number;
  readonly kernelMs: number;
  /** callMs / kernelMs, median over rounds of each round's ratio. */
  readonly ratio: number;
}

/**
 * Whole call against kernel on one input: SpMV, SpMM k = 8 (FP32) and BFS, each called
 * `rounds` times after CALL_WARMUP calls; the kernel time is the `seconds` the native call
 * reports (compute alone, no queueing or round trip).
 */
export async function callCosts(name: string, a: CsrMatrix, rounds: number): Promise<CallCost[]> {
  const out: CallCost[] = [];
  const x8 = denseFeatures({ rows: a.cols, cols: 8, seed: 7, precision: 'f32' });
  const y8 = DenseMatrix.zeros(a.rows, 8, 'f32');
  const x1 = new Float32Array(a.cols).fill(1);
  const y1 = new Float32Array(a.rows);
  const depth = new Int32Array(a.rows);
  let source = 0;
  while (source < a.rows - 1 && a.rowLength(source) === 0) source++;
  const ops: [string, () => Promise<number>][] = [
    ['spmv f32', async () => (await spmvTimed('spmv', a, x1, { out: y1 })).seconds],
    ['spmm f32 k=8', async () => (await spmmTimed('spmm', a, x8, { out: y8 })).seconds],
  ];
  if (a.rows === a.cols && a.symmetric) ops.push(['bfs', async () => (await bfs(a, source, { out: { depth } })).seconds]);
  for (const [op, call] of ops) {
    for (let i = 0; i < CALL_WARMUP; i++) await call();
    const calls: number[] = [];
    const kernels: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const t0 = performance.now();
      const seconds = await call();
      calls.push(performance.now() - t0);
      kernels.push(seconds * 1e3);
    }
    out.push({ input: name, entries: a.nnz, op, callMs: median(calls), kernelMs: median(kernels), ratio: median(calls.map((c, i) => c / kernels[i]!)) });
  }
  return out;
}
