// What feature extraction and the cost terms need from a build of the portable cores: memory to
// put the CSR and scratch in, and the cores themselves. Two implementations: WebAssembly (the
// default, CSR kept resident per matrix) and plain TypeScript over an ArrayBuffer (the reference
// it is tested against).

import type { CsrMatrix } from '../data/csr.js';
import { InvalidArgumentError } from '../errors.js';
import type { bandwidthOf, scanDraws, scanRows } from './core/entry-scan.js';
import type { graphFeatures } from './core/bfs-levels.js';
import type { rowLengthFeatures } from './core/row-lengths.js';
import type { reuseWindow } from './core/reuse.js';
import type { bfsLevelTerms, bfsTerms, msbfsTerms, spmmTerms } from './core/cost-terms.js';

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
  /**
   * The matrix in engine memory; the WebAssembly engine copies it once per matrix object. The
   * copy is checked (see checkResidentCopy), so `fn` names the caller in the error.
   */
  resident(a: CsrMatrix, fn: string): ResidentCsr;
  /** `bytes` bytes of scratch, 16-byte aligned, valid until `free`. */
  alloc(bytes: number): number;
  free(ptr: number): void;
  /** Copies out of engine memory (views would go stale when memory grows). */
  readF64(ptr: number, count: number): Float64Array;
  readI32(ptr: number, count: number): Int32Array;
  zeroF64(ptr: number, count: number): void;
  /** Copies `values` into engine memory at `ptr`. */
  writeF64(ptr: number, values: ArrayLike<number>): void;
  readonly rowLengthFeatures: typeof rowLengthFeatures;
  readonly scanRows: typeof scanRows;
  readonly scanDraws: typeof scanDraws;
  readonly bandwidthOf: typeof bandwidthOf;
  readonly graphFeatures: typeof graphFeatures;
  readonly reuseWindow: typeof reuseWindow;
  readonly spmmTerms: typeof spmmTerms;
  readonly bfsTerms: typeof bfsTerms;
  readonly bfsLevelTerms: typeof bfsLevelTerms;
  readonly msbfsTerms: typeof msbfsTerms;
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

/**
 * Check the copy of `a` an engine's cores will read: row pointers from 0 to nnz, never
 * decreasing, and every column index in [0, cols). The cores trust their input (an index out of
 * range would read or, in the reuse tables, write outside its array inside engine memory), and
 * CsrMatrix's arrays may have been changed since its own validation. One linear pass, made
 * when the copy is (once per matrix for the WebAssembly engine), over the copy itself, so a
 * later change to the JavaScript arrays cannot slip past it.
 * @throws {InvalidArgumentError} naming `fn`, the first bad position and its value.
 */
export function checkResidentCopy(fn: string, a: CsrMatrix, rowPtr: Int32Array, colIdx: Int32Array): void {
  const nnz = colIdx.length;
  if (rowPtr[0] !== 0) throw new InvalidArgumentError(`${fn}: rowPtr[0] of ${a} is ${rowPtr[0]}, not 0 (its arrays were changed after validation)`);
  for (let r = 0; r < a.rows; r++) {
    const b = rowPtr[r]!;
    const e = rowPtr[r + 1]!;
    if (e < b || e > nnz) {
      throw new InvalidArgumentError(`${fn}: rowPtr[${r + 1}] = ${e} of ${a} is not within [${b}, ${nnz}] (its arrays were changed after validation)`);
    }
  }
  if (rowPtr[a.rows] !== nnz)
    throw new InvalidArgumentError(`${fn}: rowPtr[${a.rows}] of ${a} is ${rowPtr[a.rows]}, not nnz = ${nnz} (its arrays were changed after validation)`);
  const cols = a.cols;
  for (let p = 0; p < nnz; p++) {
    const c = colIdx[p]!;
    if (c >>> 0 >= cols)
      throw new InvalidArgumentError(`${fn}: colIdx[${p}] = ${c} of ${a} is outside [0, ${cols}) (its arrays were changed after validation)`);
  }
}
