// dype's public API: data containers, loaders and generators, and the native CPU kernels.
// The scheduler, cost model and executor build on these in later modules.

export {
  DypeError,
  FormatError,
  InvalidArgumentError,
  IoError,
  LimitError,
  NativeError,
  UnsupportedError,
  type DypeErrorCode,
} from './errors.js';

export { CsrMatrix, type CsrInit, type RowPtrArray, type ValueArray } from './data/csr.js';
export { DenseMatrix, type DenseArray, type Precision } from './data/dense.js';
export { cooToCsr, type CooInit, type CooToCsrOptions, type DuplicatePolicy, type MirrorMode } from './data/coo.js';
export { dropSelfLoops, symmetrize, toCoo, transpose, type SymmetrizeOptions } from './data/convert.js';

export * from './io/index.js';
export {
  bandedMatrix,
  denseFeatures,
  erdosRenyiGraph,
  formatGeneratorSpec,
  generate,
  GENERATORS,
  gridGraph,
  kroneckerGraph,
  parseGeneratorSpec,
  type BandedOptions,
  type DenseFeaturesOptions,
  type ErdosRenyiOptions,
  type GeneratorSpec,
  type GridOptions,
  type KroneckerOptions,
} from './generators/index.js';

export { spmm, type SpmmOptions } from './kernels/spmm.js';
export { spmv, type SpmvOptions } from './kernels/spmv.js';
export { bfs, type BfsDirection, type BfsOptions, type BfsResult } from './kernels/bfs.js';
export { msbfs, type MsBfsOptions, type MsBfsResult } from './kernels/msbfs.js';
export { bfsReference, msbfsReference, spmmReference } from './kernels/reference.js';
export { rowLengthStats, type RowLengthStats } from './webassembly/row-stats.js';

import { nativeAddon } from './native/addon.js';

/** Threads the native kernels use (one per usable core; `DYPE_THREADS` overrides). */
export function nativeThreads(): number {
  return nativeAddon().threads();
}
