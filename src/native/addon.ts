// Loads the C++ addon once and describes its raw interface. Only src/kernels/ calls it, and only
// after validating every argument; nothing else in dype touches native code directly.

import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NativeError } from '../errors.js';
import type { RowPtrArray, ValueArray } from '../data/csr.js';
import type { DenseArray } from '../data/dense.js';

/** Every kernel resolves with the wall time of its compute alone (no async round trip). */
export interface NativeTimed {
  readonly seconds: number;
}

export interface NativeBfsStats extends NativeTimed {
  readonly frontier: Float64Array;
  readonly bottomUp: Uint8Array;
  readonly edgesExamined: number;
}

/** The GEMM in use: OpenBLAS, or dype's built-in kernel (then `reason` says why). */
export interface NativeGemmInfo {
  readonly library: 'openblas' | 'builtin';
  /** OpenBLAS's version; empty for the built-in kernel. */
  readonly version: string;
  readonly threading: string;
  /** openblas_get_config() where OpenBLAS was found (its detected core among it), else empty. */
  readonly config: string;
  readonly threads: number;
  readonly reason: string;
}

/** The positional arguments every native SpMM and SpMV entry point begins with (the CPU's, gpu-sim, cgra-sim, CUDA). */
export type SpmmArgs = readonly [
  rows: number,
  cols: number,
  rowPtr: RowPtrArray,
  colIdx: Int32Array,
  values: ValueArray | null,
  x: DenseArray,
  k: number,
  y: DenseArray,
  rowBegin: number,
  rowEnd: number,
];

/** The positional arguments every native graph search begins with: the graph and its in-edges (for bottom-up steps). */
export type GraphArgs = readonly [n: number, rowPtr: RowPtrArray, colIdx: Int32Array, inRowPtr: RowPtrArray, inColIdx: Int32Array];

/** The addon's exports, positional for cheap marshalling (see native/src/addon.cc). */
export interface NativeAddon {
  readonly abiVersion: number;
  spmm(...args: [...SpmmArgs, inline?: InlineMode]): Promise<NativeTimed>;
  /** spmm with k = 1 whose errors name spmv. */
  spmv: NativeAddon['spmm'];
  /** `startLevel`: -1 (the default) for a fresh search; else resume the search held in `depth` at this level. `maxLevels`: stop after this many levels; 0 (the default) for none. */
  bfs(
    ...args: [
      ...GraphArgs,
      source: number,
      depth: Int32Array,
      parent: Int32Array | null,
      direction: 0 | 1 | 2,
      alpha: number,
      beta: number,
      inline?: InlineMode,
      startLevel?: number,
      maxLevels?: number,
    ]
  ): Promise<NativeBfsStats>;
  msbfs(...args: [...GraphArgs, sources: Int32Array, depths: Int32Array, inline?: InlineMode]): Promise<NativeTimed & { readonly edgesExamined: number }>;
  /**
   * One top-down level of a distributed BFS over a rank's rows (native/src/kernels/dist_bfs.cc):
   * columns below `own` are the rank's vertices, the next `halo` its halo. Reached own vertices
   * join `next`; halo columns not yet in `haloSent` go to `outbox` as halo positions, once.
   */
  distBfsTopDown(
    own: number,
    halo: number,
    rowPtr: Int32Array,
    colIdx: Int32Array,
    depths: Int32Array,
    frontier: Int32Array,
    frontierSize: number,
    haloSent: Uint8Array,
    level: number,
    next: Int32Array,
    outbox: Int32Array,
    inline?: InlineMode,
  ): Promise<NativeTimed & { readonly nextSize: number; readonly outSize: number }>;
  /** One bottom-up level: each unreached own vertex takes the first parent flagged in `inFrontier` (own) or `haloFrontier` (halo). */
  distBfsBottomUp(
    own: number,
    halo: number,
    rowPtr: Int32Array,
    colIdx: Int32Array,
    depths: Int32Array,
    inFrontier: Uint8Array,
    haloFrontier: Uint8Array,
    level: number,
    next: Int32Array,
    inline?: InlineMode,
  ): Promise<NativeTimed & { readonly nextSize: number }>;
  /** y = x[rowBegin:rowEnd, :] * w, x m x k, w k x n (native/src/kernels/dense_binding.cc). */
  gemm(
    m: number,
    k: number,
    n: number,
    x: DenseArray,
    w: DenseArray,
    y: DenseArray,
    rowBegin: number,
    rowEnd: number,
    inline?: InlineMode,
  ): Promise<NativeTimed>;
  relu(rows: number, cols: number, x: DenseArray, out: DenseArray, rowBegin: number, rowEnd: number, inline?: InlineMode): Promise<NativeTimed>;
  affine(
    rows: number,
    cols: number,
    x: DenseArray,
    scale: number,
    shift: number,
    out: DenseArray,
    rowBegin: number,
    rowEnd: number,
    inline?: InlineMode,
  ): Promise<NativeTimed>;
  add(rows: number, cols: number, x: DenseArray, y: DenseArray, out: DenseArray, rowBegin: number, rowEnd: number, inline?: InlineMode): Promise<NativeTimed>;
  /** op: 0 sum, 1 max, 2 norm2; acc: cols doubles. */
  reducePartial(
    rows: number,
    cols: number,
    x: DenseArray,
    op: 0 | 1 | 2,
    acc: Float64Array,
    rowBegin: number,
    rowEnd: number,
    inline?: InlineMode,
  ): Promise<NativeTimed>;
  sddmm(
    rows: number,
    cols: number,
    rowPtr: RowPtrArray,
    colIdx: Int32Array,
    values: ValueArray | null,
    u: DenseArray,
    v: DenseArray,
    k: number,
    out: DenseArray,
    rowBegin: number,
    rowEnd: number,
    inline?: InlineMode,
  ): Promise<NativeTimed>;
  /** Which GEMM this build runs (see native/src/kernels/gemm.cc). */
  gemmInfo(): NativeGemmInfo;
  /** k-way METIS partition of a sorted, symmetric graph without self loops into `out`; returns its edge cut (native/src/partition_binding.cc). */
  metisPartition(n: number, rowPtr: Int32Array, colIdx: Int32Array, parts: number, seed: number, out: Int32Array, weights: Float64Array | null): number;
  /** Whether this build links METIS, and why not. */
  metisInfo(): { available: boolean; reason: string };
  /** A new shared-memory region of exactly `bytes` zero bytes (a size-sealed memfd): its descriptor (native/src/shared_memory.cc). */
  sharedRegionCreate(bytes: number, populate?: boolean): number;
  /** Seal a region against writes, map it privately and close its descriptor (even on failure). */
  sharedRegionMap(fd: number): ArrayBuffer;
  /** Seal a region the caller wrote against any further write, keeping its descriptor open. */
  sharedRegionSeal(fd: number): void;
  /** Map a region another process made and sealed against writes, by its /proc path. */
  sharedRegionOpen(path: string): ArrayBuffer;
  /** Close a region that will not be mapped. */
  sharedRegionClose(fd: number): void;
  /** The SHA-256 of each `chunkBytes` piece of the array's bytes into `out`, 32 bytes a piece, in parallel off the JS thread (native/src/content_hash.cc). */
  sha256Chunks(array: ArrayBufferView, chunkBytes: number, out: Uint8Array): Promise<NativeTimed>;
  /** Whether this Node lets the addon use OpenSSL's SHA-256, and why not. */
  sha256Info(): { available: boolean; reason: string };
  /** Whether CSR arrays are well formed: -1 not, 1 with every row's columns strictly increasing, 0 otherwise (native/src/input_scans.cc). */
  csrCheck(rows: number, cols: number, rowPtr: RowPtrArray, colIdx: Int32Array): number;
  /** Index of the first NaN or infinity, or -1. */
  firstNonFinite(array: Float32Array | Float64Array): number;
  /** `csrCheck` on a libuv worker (the arrays must not change until it settles). */
  csrCheckOffThread(rows: number, cols: number, rowPtr: RowPtrArray, colIdx: Int32Array): Promise<NativeTimed & { verdict: number }>;
  /** `firstNonFinite` on a libuv worker (the array must not change until it settles). */
  firstNonFiniteOffThread(array: Float32Array | Float64Array): Promise<NativeTimed & { index: number }>;
  /** Whether this platform has shared-memory regions (Linux), and why not. */
  sharedRegionInfo(): { available: boolean; reason: string };
  noopSync(): void;
  noopAsync(): Promise<void>;
  threads(): number;
  /** The core the host lane is bound to, or -1 where threads are not bound (docs/threads.md). */
  laneCore(): number;
  /** How many times the host lane has traded cores with a pool worker so a call could run on the JS thread (docs/threads.md). */
  laneMoves(): number;
  /** Bytes of last-level cache this process can count on (L2 plus 4 MiB of L3 a core, at most the reported L3). */
  cacheShareBytes(): number;
  /** One core's L2 in bytes (2 MiB where the system does not say). */
  l2CacheBytes(): number;
  /** Kernel calls not yet destroyed (queued, running or awaiting their Promise's settlement). */
  liveWorkers(): number;
  /**
   * On the host lane, `jobs` pool jobs of `chunks` empty chunks, each after `gapMicros` of serial
   * work; resolves with how many times a pool worker went to sleep meanwhile (diagnostics).
   */
  poolProbe(jobs: number, chunks: number, gapMicros: number): Promise<{ sleeps: number }>;
  /**
   * Pool jobs of two or more chunks since the process started, those whose caller ran every
   * chunk alone for 10 us or more (no worker came: its core held by another thread), and calls
   * whose computing thread was switched out against its will while watched (`watchPreemption`).
   */
  poolJobs(): { shared: number; unaided: number; preempted: number };
  /** One more (true) or one fewer (false) watcher: while any watches, calls count their preemption. */
  watchPreemption(on: boolean): void;
  /** Bytes from `buffer`'s data to the next multiple of `boundary` (a power of two up to 2 MiB; default 64; 0 where it is on one). */
  alignmentPad(buffer: ArrayBuffer, boundary?: number): number;
  /**
   * Map bytes `[byteOffset, byteOffset + byteLength)` of `buffer` for writing, as a kernel's output
   * is before its clock starts (whole 2 MiB blocks as huge pages where the system offers them);
   * contents unchanged. Returns how many of the range's whole pages are mapped afterwards, of how many.
   */
  provisionPages(buffer: ArrayBuffer, byteOffset: number, byteLength: number): { mapped: number; pages: number };
  /** Every cache line of `data` written back to itself on this thread (contents unchanged): the array as another thread leaves what it wrote. */
  handOver(data: ArrayBufferView): void;
  /**
   * Whether freed memory is kept in the process (native/src/memory_retention.cc): allocations
   * under `heapBelowBytes` come from the heap, which keeps up to `keepFreeBytes` free at its top,
   * so a run's outputs reuse memory whose pages are backed; `reason` says why not where not.
   */
  memoryRetention(): { applied: boolean; heapBelowBytes: number; keepFreeBytes: number; reason: string };
}

const EXPECTED_ABI = 17;
let cached: NativeAddon | undefined;

/** Repository (or installed package) root: this file sits two levels below it in src/ and dist/. */
export const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The native addon, loaded on first use.
 * @throws {NativeError} when the addon was not built (run `npm install` or `npm run build:native`).
 */
export function nativeAddon(): NativeAddon {
  if (cached) return cached;
  const path = process.env['DYPE_NATIVE_ADDON'] ?? join(packageRoot, 'build', 'Release', 'dype_native.node');
  let addon: NativeAddon;
  try {
    addon = createRequire(import.meta.url)(path) as NativeAddon;
  } catch (cause) {
    throw new NativeError(
      `nativeAddon: cannot load the native addon from ${path} (${cause instanceof Error ? cause.message : String(cause)}); ` +
        'build it with `npm run build:native`',
      { cause },
    );
  }
  if (addon.abiVersion !== EXPECTED_ABI) {
    throw new NativeError(`nativeAddon: addon ABI ${addon.abiVersion} does not match ${EXPECTED_ABI}; rebuild with \`npm run build:native\``);
  }
  cached = addon;
  return addon;
}

/** The addon where it loads, else null: for callers that have a TypeScript path of their own (input scans, hashing). */
export function optionalAddon(): NativeAddon | null {
  try {
    return nativeAddon();
  } catch {
    return null;
  }
}

/**
 * Work (roughly, memory touches) below which a kernel runs on the calling thread instead of a
 * libuv worker: a few tens of microseconds of compute, less than the async round trip costs.
 * The Promise-based API is unchanged; the event loop is held for at most that long.
 */
export const INLINE_WORK = 1 << 15;

/**
 * The same bound for the CPU kernels (spmm, spmv, bfs, msbfs), which run on the calling thread
 * together with the native thread pool: up to about a millisecond of work. Above INLINE_WORK
 * and below this, the libuv round trip (50-120 us on a 2-vCPU VM: a cross-thread wake each
 * way) cost as much as the kernel, so a call on a graph of 10k-100k entries took 2-3x its
 * kernel; inline it costs the kernel and a few microseconds. The event loop is held for the
 * kernel's time, about a millisecond at most.
 */
export const KERNEL_INLINE_WORK = 1 << 21;

/** Work below this runs as one chunk on the calling thread in every CPU kernel: no pool thread joins in. */
export const SINGLE_CHUNK_WORK = 1 << 15;

/**
 * Where a CPU kernel call runs: 0 on the addon's host lane (native/src/host_lane.h); 1 on the
 * calling thread where no pool worker shares its core, else on the lane (a worker that shares the
 * caller's core sits idle for the call, and a two-thread kernel runs at one thread's speed); 2 on
 * the calling thread always (one chunk: no worker takes part). `true` and `false` mean 1 and 0.
 */
export type InlineMode = boolean | 0 | 1 | 2;

/** The inline mode of a CPU kernel call of `work` units (stored entries times width plus rows, or elements). */
export function inlineMode(work: number): InlineMode {
  return work < SINGLE_CHUNK_WORK ? 2 : work < KERNEL_INLINE_WORK ? 1 : 0;
}
