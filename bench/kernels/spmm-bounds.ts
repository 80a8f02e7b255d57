// What an SpMM could cost at best on this machine, and what a small call costs beyond its kernel:
// the gather-aware traffic bound, per level of the memory hierarchy (compulsory bytes plus the X
// lines an LRU cache of each level's size would still miss), priced at each level's bandwidth
// measured in the same run, and whole call against kernel time on inputs of 10k-100k entries.
// Helpers of spmm.ts; not a suite of their own.

import type { CsrMatrix } from '../../src/data/csr.js';
import { DenseMatrix } from '../../src/data/dense.js';
import { denseFeatures } from '../../src/generators/index.js';
import { spmmTimed } from '../../src/kernels/spmm.js';
import { spmvTimed } from '../../src/kernels/spmv.js';
import { bfs } from '../../src/kernels/bfs.js';
import { median } from '../common/measure.js';
import { fixed } from '../common/report.js';
import { bestTriad, type ReferenceAddon } from '../references/load.js';

/** One boundary of the memory hierarchy the bound prices: the cache on its near side and what crosses it. */
export interface CacheLevel {
  /** Where the bytes come from: 'L2', 'L3' or 'memory'. */
  readonly source: string;
  /** Capacity of the cache they fill, in bytes: a thread's own (private) or the process's (shared). */
  readonly cacheBytes: number;
  readonly privateToThread: boolean;
}

/** Bytes an SpMM must move across each level (in `levels`' order), and the compulsory part of them. */
export interface LevelTraffic {
  readonly compulsory: number;
  readonly bytes: readonly number[];
}

/**
 * The gathers of X rows a fully associative LRU cache of `capacity` units misses among the
 * gathers colIdx[from..to), first touches left out (compulsory traffic counts them). A unit is
 * one X row, or one 64-byte line where several rows share it (`rowsPerUnit`).
 */
function lruMisses(colIdx: Int32Array, from: number, to: number, rowsPerUnit: number, capacity: number, units: number): number {
  const prev = new Int32Array(units);
  const next = new Int32Array(units);
  const state = new Uint8Array(units); // 0: never seen, 1: held, 2: evicted
  let head = -1;
  let tail = -1;
  let held = 0;
  let misses = 0;
  for (let i = from; i < to; i++) {
    const u = rowsPerUnit === 1 ? colIdx[i]! : Math.floor(colIdx[i]! / rowsPerUnit);
    if (state[u] === 1) {
      if (u === head) continue;
      const p = prev[u]!;
      const n = next[u]!;
      next[p] = n;
      if (n >= 0) prev[n] = p;
      else tail = p;
      prev[u] = -1;
      next[u] = head;
      prev[head] = u;
      head = u;
      continue;
    }
    if (state[u] === 2) misses++;
    state[u] = 1;
    prev[u] = -1;
    next[u] = head;
    if (head >= 0) prev[head] = u;
    else tail = u;
    head = u;
    if (++held > capacity) {
      const t = tail;
      tail = prev[t]!;
      next[tail] = -1;
      state[t] = 2;
      held--;
    }
  }
  return misses;
}

/** Row bounds of `threads` contiguous parts of A with about equal stored entries each. */
function partsByEntries(a: CsrMatrix, threads: number): [number, number][] {
  const parts: [number, number][] = [];
  let row = 0;
  for (let t = 1; t <= threads; t++) {
    const goal = (a.nnz * t) / threads;
    let end = row;
    while (end < a.rows && a.rowStart(end + 1) <= goal) end++;
    if (t === threads) end = a.rows;
    parts.push([row, end]);
    row = end;
  }
  return parts;
}

/**
 * Bytes an SpMM Y = A X must move across each level of the memory hierarchy: the compulsory
 * traffic (rowPtr, colIdx, values, X once, Y once) crosses every level; on top of it, each
 * gather of an X row that an LRU cache of the level's size would not hold brings one unit (the
 * row's whole 64-byte lines; X starts on a line, as dype allocates it). A private level is
 * simulated per thread on its share of the rows, a shared one over all gathers. It errs toward
 * less traffic: exact LRU, no room taken by the streamed arrays, and a row one thread brings
 * into its own cache first is counted once for the process, in the compulsory bytes.
 */
export function levelTraffic(a: CsrMatrix, k: number, elementBytes: number, levels: readonly CacheLevel[], threads: number): LevelTraffic {
  const compulsory = 4 * (a.rows + 1) + 4 * a.nnz + elementBytes * a.nnz + elementBytes * a.cols * k + elementBytes * a.rows * k;
  const rowBytes = k * elementBytes;
  const rowsPerUnit = rowBytes < 64 && 64 % rowBytes === 0 ? 64 / rowBytes : 1;
  const unitBytes = rowsPerUnit > 1 ? 64 : Math.ceil(rowBytes / 64) * 64;
  const units = Math.ceil(a.cols / rowsPerUnit);
  const colIdx = a.colIdx as Int32Array;
  const parts = partsByEntries(a, Math.max(1, threads));
  const bytes = levels.map((level) => {
    const capacity = Math.max(1, Math.floor(level.cacheBytes / unitBytes));
    const spans = level.privateToThread ? parts : [[0, a.rows] as [number, number]];
    let misses = 0;
    for (const [begin, end] of spans) misses += lruMisses(colIdx, a.rowStart(begin), a.rowStart(end), rowsPerUnit, capacity, units);
    return compulsory + misses * unitBytes;
  });
  return { compulsory, bytes };
}

/**
 * The levels the bound prices on this machine, nearest first: bytes into a core's L1 come from
 * L2, into its L2 from L3, and what the process's cache share cannot hold comes from memory. The
 * first two are priced at `cacheBandwidth` over a working set inside the level (half of L2; a
 * few MiB a thread, past L2 and within the share), memory at the STREAM-style triad.
 */
export function cacheHierarchy(addon: ReferenceAddon, threads: number, l2Bytes: number, shareBytes: number): { levels: CacheLevel[]; price: () => number[] } {
  const levels: CacheLevel[] = [
    { source: 'L2', cacheBytes: addon.l1DataCacheBytes(), privateToThread: true },
    { source: 'L3', cacheBytes: l2Bytes, privateToThread: true },
    { source: 'memory', cacheBytes: shareBytes, privateToThread: false },
  ];
  const probes = [l2Bytes / 2, Math.max(2 * l2Bytes, (shareBytes / threads + l2Bytes) / 2)];
  const best = (bytes: number): number => Math.max(addon.cacheBandwidth(bytes, threads), addon.cacheBandwidth(bytes, threads));
  return { levels, price: () => [...probes.map(best), bestTriad(addon, threads)] };
}

/**
 * Lower bound on an SpMM's time from its traffic: each level's bytes at that level's measured
 * bandwidth (GB/s, same order), the slowest level setting the pace (levels work at once).
 */
export function boundSeconds(traffic: LevelTraffic, gbs: readonly number[]): number {
  let worst = 0;
  traffic.bytes.forEach((b, i) => {
    worst = Math.max(worst, b / (gbs[i]! * 1e9));
  });
  return worst;
}

/**
 * An SpMM that took `seconds` against its bound: the per-level bound's time over it, and the
 * memory level's bytes alone at the memory bandwidth (the last price) over it, the old figure.
 */
export function boundShares(
  r: { readonly compulsoryBytes: number; readonly levelBytes: readonly number[] },
  seconds: number,
  gbs: readonly number[],
): { boundShare: number; memoryBoundShare: number } {
  const memoryBytes = r.levelBytes[r.levelBytes.length - 1]!;
  return {
    boundShare: boundSeconds({ compulsory: r.compulsoryBytes, bytes: r.levelBytes }, gbs) / seconds,
    memoryBoundShare: memoryBytes / (gbs[gbs.length - 1]! * 1e9) / seconds,
  };
}

/** The report's note on how the bound is made and priced; `memoryMedian` is the old figure's median. */
export function boundNote(levels: readonly CacheLevel[], gbs: readonly number[], threads: number, memoryMedian: number): string {
  const caches = levels.map((l) => `${fixed(l.cacheBytes / 2 ** 20, 2)} MiB${l.privateToThread ? ' a thread' : ''}`).join(', ');
  const prices = gbs.map((g, i) => `${levels[i]!.source} ${fixed(g, 1)}`).join(', ');
  return (
    `Gather-aware bound, per level: the compulsory traffic (rowPtr + colIdx + values + X once + Y once) crosses every level, and each gather of an X row that a fully associative LRU cache of the level's size would not hold brings its whole lines (caches of ${caches}: L1, L2, this process's share of the last level as the native kernels size it). ` +
    `Each level's bytes are priced at its bandwidth measured in this run with ${threads} thread(s), the faster of the start's and the end's (${prices} GB/s: the faster of a read-only sum and a triad over a working set inside the level; memory: the STREAM-style triad), and the slowest level sets the bound. "% of bound" = bound time / dype time; judged on inputs larger than the cache share. ` +
    `"memory-only" is the bound as judged before 1 December 2026: the bytes from memory alone at the triad, so an input the last level holds was priced as if it came from memory and its gathers from L3 as free (median ${fixed(100 * memoryMedian, 0)}% on the judged inputs; its misses are the exact LRU's now, a reuse-distance histogram's before).`
  );
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
