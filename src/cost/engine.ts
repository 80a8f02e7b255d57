// What feature extraction needs from a build of the portable cores: memory to put the CSR and
// scratch in, and the cores themselves. Two implementations: WebAssembly (the default, CSR kept
// resident per matrix) and plain TypeScript over an ArrayBuffer (the reference it is tested against).

import type { CsrMatrix } from '../data/csr.js';
import type { bandwidthOf, scanDraws, scanRows } from './core/entry-scan.js';
import type { graphFeatures } from './core/bfs-levels.js';
import type { rowLengthFeatures } from './core/row-lengths.js';
import type { reuseWindow } from './core/reuse.js';

/** Which build of the cores runs: 'wasm' (default) or 'typescript' (the same source under tsc). */
export type FeatureEngineName = 'wasm' | 'typescript';
export const FEATURE_ENGINES: readonly FeatureEngineName[] = ['wasm', 'typescript'];

/** Byte addresses of a CSR matrix in an engine's memory: int32 row pointers, int32 columns. */
export interface ResidentCsr {
  readonly rowPtr: number;
  readonly colIdx: number;
}

export interface FeatureEngine {
  readonly name: FeatureEngineName;
  /** The matrix in engine memory; the WebAssembly engine copies it once per matrix object. */
  resident(a: CsrMatrix): ResidentCsr;
  /** `bytes` bytes of scratch, 16-byte aligned, valid until `free`. */
  alloc(bytes: number): number;
  free(ptr: number): void;
  /** Copies out of engine memory (views would go stale when memory grows). */
  readF64(ptr: number, count: number): Float64Array;
  readI32(ptr: number, count: number): Int32Array;
  zeroF64(ptr: number, count: number): void;
  readonly rowLengthFeatures: typeof rowLengthFeatures;
  readonly scanRows: typeof scanRows;
  readonly scanDraws: typeof scanDraws;
  readonly bandwidthOf: typeof bandwidthOf;
  readonly graphFeatures: typeof graphFeatures;
  readonly reuseWindow: typeof reuseWindow;
}

/** Row pointers narrowed to int32 into `dst` (64-bit ones fit: engine memory cannot hold 2^31 columns anyway). */
export function writeRowPtr(a: CsrMatrix, dst: Int32Array): void {
  const src = a.rowPtr;
  if (src instanceof Int32Array) {
    dst.set(src);
    return;
  }
  for (let i = 0; i < src.length; i++) dst[i] = Number(src[i]!);
}
