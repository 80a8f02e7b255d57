// Builds (once, and again whenever references.cc or binding.gyp is newer than the build) and
// loads the benchmark-only reference addon: Eigen's SpMM, a plain OpenMP SpMM, a plain BFS, a
// GAP-style direction-optimising BFS and, where SuiteSparse:GraphBLAS is installed, its mxm and
// a GraphBLAS BFS; and the GAP-style BFS as a standalone program.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ReferenceAddon {
  eigenSpmm(
    rows: number,
    cols: number,
    rowPtr: Int32Array,
    colIdx: Int32Array,
    values: Float32Array | Float64Array,
    x: Float32Array | Float64Array,
    k: number,
    y: Float32Array | Float64Array,
    threads: number,
  ): void;
  plainSpmm(
    rows: number,
    cols: number,
    rowPtr: Int32Array,
    colIdx: Int32Array,
    values: Float32Array | Float64Array,
    x: Float32Array | Float64Array,
    k: number,
    y: Float32Array | Float64Array,
    threads: number,
  ): void;
  plainBfs(n: number, rowPtr: Int32Array, colIdx: Int32Array, source: number, depth: Int32Array): number;
  /** STREAM-style triad over three arrays of n doubles with `threads` OpenMP threads: GB/s, best of 5. */
  triad(n: number, threads: number): number;
  /** GB/s over `bytesPerThread` a thread: the faster of a read-only sum and a triad, many passes in one parallel region. */
  cacheBandwidth(bytesPerThread: number, threads: number): number;
  /** One core's L1 data cache in bytes. */
  l1DataCacheBytes(): number;
  /** The GAP-style direction-optimising BFS (gap_bfs.h) into `parent`; returns the vertices reached. */
  gapBfs(
    n: number,
    rowPtr: Int32Array,
    colIdx: Int32Array,
    inRowPtr: Int32Array,
    inColIdx: Int32Array,
    source: number,
    parent: Int32Array,
    threads: number,
  ): number;
  readonly eigenVersion: string;
  /** Present only when the addon was built against GraphBLAS (see graphblasOf). */
  readonly GraphblasSpmm?: new (
    rowPtr: Int32Array,
    colIdx: Int32Array,
    values: Float32Array | Float64Array,
    cols: number,
    x: Float32Array | Float64Array,
    k: number,
  ) => GraphblasSpmm;
  readonly GraphblasBfs?: new (rowPtr: Int32Array, colIdx: Int32Array) => GraphblasBfs;
  readonly graphblasThreads?: (threads: number) => void;
  readonly graphblasVersion?: string;
  /** OpenBLAS called directly (blas.cc): y = x * w with OpenBLAS's own `threads`. Present only when built against OpenBLAS. */
  readonly blasGemm?: (
    m: number,
    k: number,
    n: number,
    x: Float32Array | Float64Array,
    w: Float32Array | Float64Array,
    y: Float32Array | Float64Array,
    threads: number,
  ) => void;
  /** The kernels OpenBLAS chose for this CPU (openblas_get_corename). */
  readonly blasCore?: string;
  readonly blasConfig?: string;
}

/** C = A * X with GrB_mxm; A and X converted once at construction, outside any timing. */
export interface GraphblasSpmm {
  /** GrB_mxm into the C kept between calls, then GrB_wait: the timed part. */
  run(): void;
  /** Copy C into a row-major rows x k array (zeros where C has no entry). */
  read(y: Float32Array | Float64Array): void;
  /** Free the GraphBLAS objects now rather than at garbage collection. */
  free(): void;
}

/** Level-synchronous BFS with GrB_vxm (ANY_PAIR semiring, complemented visited mask). */
export interface GraphblasBfs {
  /** Search from `source` along out-edges; returns the number of levels. */
  run(source: number): number;
  /** Depths of the last search, -1 where unreached. */
  read(depth: Int32Array): void;
  free(): void;
}

export interface GraphblasReference {
  readonly Spmm: NonNullable<ReferenceAddon['GraphblasSpmm']>;
  readonly Bfs: NonNullable<ReferenceAddon['GraphblasBfs']>;
  readonly version: string;
}

const here = dirname(fileURLToPath(import.meta.url));
const addonPath = join(here, 'build', 'Release', 'dype_bench_refs.node');

function nodeGyp(): string {
  const fromNpm = process.env['npm_config_node_gyp'];
  if (fromNpm && existsSync(fromNpm)) return fromNpm;
  return join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
}

/**
 * Outside `npm run`, node-gyp does not see npm's `nodedir` setting and would try to download
 * Node's headers; use the headers installed beside this node binary when there are any.
 */
function nodeDirArgs(): string[] {
  const fromNpm = process.env['npm_config_nodedir'];
  if (fromNpm) return [`--nodedir=${fromNpm}`];
  const prefix = join(dirname(process.execPath), '..');
  return existsSync(join(prefix, 'include', 'node', 'node_api.h')) ? [`--nodedir=${prefix}`] : [];
}

/** A build older than its sources would silently measure the old code. */
function stale(): boolean {
  if (!existsSync(addonPath)) return true;
  const built = statSync(addonPath).mtimeMs;
  return ['references.cc', 'graphblas.cc', 'graphblas.h', 'gap_bfs.h', 'blas.cc', 'binding.gyp'].some((f) => statSync(join(here, f)).mtimeMs > built);
}

/**
 * The machine's triad bandwidth at `threads` threads, GB/s: the best of `calls` calls of the
 * reference's triad (each the best of five). On the 2-vCPU VM a two-thread triad read 39-72 GB/s
 * from one call to the next in a process without dype (OpenMP's two threads do not always get
 * both cores), and a bound priced at a low reading flatters the kernel measured against it.
 */
export function bestTriad(addon: ReferenceAddon, threads: number, calls = 4): number {
  let best = 0;
  for (let i = 0; i < calls; i++) best = Math.max(best, addon.triad(2 ** 24, threads));
  return best;
}

/** Load the reference addon, building it first when needed. Returns undefined (with a reason) when Eigen is missing. */
export function loadReferences(): { addon: ReferenceAddon } | { addon: undefined; reason: string } {
  if (!existsSync('/usr/include/eigen3/Eigen/SparseCore')) {
    return { addon: undefined, reason: 'Eigen 3 headers not found: install the Debian package libeigen3-dev' };
  }
  if (stale() || process.env['DYPE_REBUILD_REFERENCES']) {
    execFileSync(process.execPath, [nodeGyp(), 'rebuild', ...nodeDirArgs()], { cwd: here, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  // The references' OpenMP threads (Eigen, the plain loops, GraphBLAS, the GAP-style BFS) would
  // otherwise spin for milliseconds after each call (libgomp's default) and take a core from
  // the dype call timed next in the same process. libgomp reads this when it is loaded, just
  // below; a value the user set is kept.
  process.env['OMP_WAIT_POLICY'] ??= 'passive';
  return { addon: createRequire(import.meta.url)(addonPath) as ReferenceAddon };
}

const gapBfsPath = join(here, 'build', 'gap_bfs');

/**
 * The GAP-style BFS as a program of its own (gap_bfs_main.cc), built with g++ on first use and
 * whenever its sources change: the reference timed where it runs fastest, outside Node, with
 * OpenMP's default (spinning) waits and no dype pool beside it. Undefined when g++ is missing.
 */
export function gapBfsProgram(): { path: string } | { path: undefined; reason: string } {
  const sources = ['gap_bfs_main.cc', 'gap_bfs.h'].map((f) => join(here, f));
  const fresh = existsSync(gapBfsPath) && sources.every((f) => statSync(f).mtimeMs <= statSync(gapBfsPath).mtimeMs);
  if (!fresh) {
    try {
      mkdirSync(dirname(gapBfsPath), { recursive: true });
      execFileSync('g++', ['-std=c++17', '-O3', '-march=native', '-fopenmp', sources[0]!, '-o', gapBfsPath], { stdio: ['ignore', 'ignore', 'inherit'] });
    } catch (e) {
      return { path: undefined, reason: `g++ could not build bench/references/gap_bfs_main.cc (${(e as Error).message.split('\n')[0]})` };
    }
  }
  return { path: gapBfsPath };
}

/**
 * The GraphBLAS side of the addon with its thread count set to `threads`, or why there is none
 * (built where GraphBLAS.h was missing: install libgraphblas-dev and rebuild with
 * DYPE_REBUILD_REFERENCES=1).
 */
export function graphblasOf(addon: ReferenceAddon, threads: number): { graphblas: GraphblasReference } | { graphblas: undefined; reason: string } {
  if (addon.GraphblasSpmm === undefined || addon.GraphblasBfs === undefined || addon.graphblasThreads === undefined) {
    return {
      graphblas: undefined,
      reason:
        'the reference addon was built without SuiteSparse:GraphBLAS (install libgraphblas-dev, then DYPE_REBUILD_REFERENCES=1); GraphBLAS columns skipped',
    };
  }
  addon.graphblasThreads(threads);
  return { graphblas: { Spmm: addon.GraphblasSpmm, Bfs: addon.GraphblasBfs, version: addon.graphblasVersion ?? 'unknown' } };
}
