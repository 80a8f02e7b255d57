// Row-length statistics computed in WebAssembly: the first of the structural features the cost
// model reads from an input.

import { CsrMatrix } from '../data/csr.js';
import { describe, InvalidArgumentError, UnsupportedError } from '../errors.js';
import { copyIntoWasm, wasmModule } from './module.js';

export interface RowLengthStats {
  readonly nnz: number;
  readonly mean: number;
  /** Standard deviation over mean of the row lengths: 0 for perfectly regular rows. */
  readonly cv: number;
  readonly max: number;
  readonly emptyRows: number;
  /** Rows longer than twice the mean. */
  readonly heavyRows: number;
}

/**
 * Row-length statistics of a CSR matrix, computed by the WebAssembly module.
 *
 * @throws {InvalidArgumentError} when `a` is not a CsrMatrix.
 * @throws {UnsupportedError} for 64-bit row pointers (not yet supported by the module).
 * @example
 * const { mean, cv, max } = rowLengthStats(graph);
 */
export function rowLengthStats(a: CsrMatrix): RowLengthStats {
  const fn = 'rowLengthStats';
  if (!(a instanceof CsrMatrix)) throw new InvalidArgumentError(`${fn}: a must be a CsrMatrix, got ${describe(a)}`);
  if (!(a.rowPtr instanceof Int32Array)) throw new UnsupportedError(`${fn}: 64-bit row pointers are not supported yet`);
  const wasm = wasmModule();
  const rowPtr = copyIntoWasm(a.rowPtr);
  const fields = wasm.ROW_STATS_FIELDS.value as number;
  const out = wasm.alloc(fields * 8);
  try {
    if (wasm.rowLengthStats(rowPtr.ptr, a.rows, out) !== 0) {
      throw new InvalidArgumentError(`${fn}: row pointers decrease`);
    }
    const f = new Float64Array(wasm.memory.buffer, out, fields);
    return { nnz: f[0]!, mean: f[1]!, cv: f[2]!, max: f[3]!, emptyRows: f[4]!, heavyRows: f[5]! };
  } finally {
    wasm.free(out);
    rowPtr.release();
  }
}
