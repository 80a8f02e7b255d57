// Builds (once, and again whenever references.cc or binding.gyp is newer than the build) and
// loads the benchmark-only reference addon: Eigen's SpMM, a plain OpenMP SpMM, a plain BFS and,
// where SuiteSparse:GraphBLAS is installed, its mxm and a GraphBLAS BFS.

import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ReferenceAddon {
  eigenSpmm(
    rows: number, cols: number, rowPtr: Int32Array, colIdx: Int32Array, values: Float32Array | Float64Array,
    x: Float32Array | Float64Array, k: number, y: Float32Array | Float64Array, threads: number,
  ): void;
  plainSpmm(
    rows: number, cols: number, rowPtr: Int32Array, colIdx: Int32Array, values: Float32Array | Float64Array,
    x: Float32Array | Float64Array, k: number, y: Float32Array | Float64Array, threads: number,
  ): void;
  plainBfs(n: number, rowPtr: Int32Array, colIdx: Int32Array, source: number, depth: Int32Array): number;
  readonly eigenVersion: string;
  /** Present only when the addon was built against GraphBLAS (see graphblasOf). */
  readonly GraphblasSpmm?: new (
    rowPtr: Int32Array, colIdx: Int32Array, values: Float32Array | Float64Array, cols: number, x: Float32Array | Float64Array, k: number,
  ) => GraphblasSpmm;
  readonly GraphblasBfs?: new (rowPtr: Int32Array, colIdx: Int32Array) => GraphblasBfs;
  readonly graphblasThreads?: (threads: number) => void;
  readonly graphblasVersion?: string;
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
  return ['references.cc', 'graphblas.cc', 'graphblas.h', 'binding.gyp'].some((f) => statSync(join(here, f)).mtimeMs > built);
}

/** Load the reference addon, building it first when needed. Returns undefined (with a reason) when Eigen is missing. */
export function loadReferences(): { addon: ReferenceAddon } | { addon: undefined; reason: string } {
  if (!existsSync('/usr/include/eigen3/Eigen/SparseCore')) {
    return { addon: undefined, reason: 'Eigen 3 headers not found: install the Debian package libeigen3-dev' };
  }
  if (stale() || process.env['DYPE_REBUILD_REFERENCES']) {
    execFileSync(process.execPath, [nodeGyp(), 'rebuild', ...nodeDirArgs()], { cwd: here, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  return { addon: createRequire(import.meta.url)(addonPath) as ReferenceAddon };
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
      reason: 'the reference addon was built without SuiteSparse:GraphBLAS (install libgraphblas-dev, then DYPE_REBUILD_REFERENCES=1); GraphBLAS columns skipped',
    };
  }
  addon.graphblasThreads(threads);
  return { graphblas: { Spmm: addon.GraphblasSpmm, Bfs: addon.GraphblasBfs, version: addon.graphblasVersion ?? 'unknown' } };
}
