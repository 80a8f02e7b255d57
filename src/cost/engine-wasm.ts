// The WebAssembly build of the portable cores (features and cost terms). Each matrix is copied into linear memory once, on
// first use, and stays there while the CsrMatrix object lives: a WeakMap finds the copy, a
// FinalizationRegistry frees it after the object is collected (or releaseResident, sooner).

import type { CsrMatrix } from '../data/csr.js';
import { LimitError } from '../errors.js';
import { wasmModule, type WasmExports } from '../webassembly/module.js';
import { checkResidentCopy, type FeatureEngine, type ResidentCsr, writeRowPtr } from './engine.js';

/** Largest block the module's allocator (TLSF) hands out. */
/** Largest block one array may take in WebAssembly memory. */
export const MAX_BLOCK_BYTES = 2 ** 30 - 64;

interface Blocks extends ResidentCsr {
  readonly wasm: WasmExports;
}

const residents = new WeakMap<CsrMatrix, Blocks>();
const reclaim = new FinalizationRegistry<Blocks>((b) => {
  b.wasm.free(b.rowPtr);
  b.wasm.free(b.colIdx);
});

function copyIn(a: CsrMatrix, fn: string): Blocks {
  const rowBytes = 4 * (a.rows + 1);
  const colBytes = 4 * a.nnz;
  if (rowBytes > MAX_BLOCK_BYTES || colBytes > MAX_BLOCK_BYTES) {
    throw new LimitError(`${fn}: ${a} does not fit in WebAssembly memory (at most ${MAX_BLOCK_BYTES} bytes per array)`);
  }
  const wasm = wasmModule();
  const rowPtr = wasm.alloc(rowBytes);
  const colIdx = wasm.alloc(Math.max(colBytes, 4));
  // Views only after both allocations: either may have grown (and so replaced) the buffer.
  const rows = new Int32Array(wasm.memory.buffer, rowPtr, a.rows + 1);
  const cols = new Int32Array(wasm.memory.buffer, colIdx, a.nnz);
  writeRowPtr(a, rows);
  cols.set(a.colIdx);
  try {
    checkResidentCopy(fn, a, rows, cols);
  } catch (e) {
    wasm.free(colIdx);
    wasm.free(rowPtr);
    throw e;
  }
  return { wasm, rowPtr, colIdx };
}

/**
 * Free the resident copy of `a` now instead of when `a` is collected (benchmarks timing the copy).
 * @internal
 */
export function releaseResident(a: CsrMatrix): void {
  const b = residents.get(a);
  if (b === undefined) return;
  residents.delete(a);
  reclaim.unregister(b);
  b.wasm.free(b.rowPtr);
  b.wasm.free(b.colIdx);
}

/** The WebAssembly engine (module loaded on first use). */
export function wasmEngine(): FeatureEngine {
  const wasm = wasmModule();
  return {
    name: 'wasm',
    resident(a, fn) {
      let b = residents.get(a);
      if (b === undefined) {
        b = copyIn(a, fn);
        residents.set(a, b);
        reclaim.register(a, b, b);
      }
      return b;
    },
    alloc: (bytes) => wasm.alloc(Math.max(16, Math.ceil(bytes))),
    free: (ptr) => wasm.free(ptr),
    readF64: (ptr, count) => new Float64Array(wasm.memory.buffer, ptr, count).slice(),
    readI32: (ptr, count) => new Int32Array(wasm.memory.buffer, ptr, count).slice(),
    zeroF64: (ptr, count) => new Float64Array(wasm.memory.buffer, ptr, count).fill(0),
    writeF64: (ptr, values) => new Float64Array(wasm.memory.buffer, ptr, values.length).set(values),
    rowLengthFeatures: wasm.rowLengthFeatures,
    scanRows: wasm.scanRows,
    scanDraws: wasm.scanDraws,
    bandwidthOf: wasm.bandwidthOf,
    graphFeatures: wasm.graphFeatures,
    reuseWindow: wasm.reuseWindow,
    spmmTerms: wasm.spmmTerms,
    bfsTerms: wasm.bfsTerms,
    bfsLevelTerms: wasm.bfsLevelTerms,
    msbfsTerms: wasm.msbfsTerms,
  };
}
