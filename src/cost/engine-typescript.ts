// The plain TypeScript build of the portable cores (features and cost terms): the same files as
// the WebAssembly build, run by tsx/node, with AssemblyScript's memory accessors defined over one
// growable ArrayBuffer. The reference the differential tests hold the WebAssembly engine to; not
// meant to be fast.

import type { CsrMatrix } from '../data/csr.js';
import { bandwidthOf, scanDraws, scanRows } from './core/entry-scan.js';
import { graphFeatures } from './core/bfs-levels.js';
import { rowLengthFeatures } from './core/row-lengths.js';
import { reuseWindow } from './core/reuse.js';
import { bfsLevelTerms, bfsTerms, msbfsTerms, spmmTerms } from './core/cost-terms.js';
import { expPortable, lnPortable, log2Portable, powPortable } from './core/portable-math.js';
import { checkResidentCopy, type FeatureEngine, writeRowPtr } from './engine.js';

let heap = new ArrayBuffer(1 << 16);
let i32 = new Int32Array(heap);
let f64 = new Float64Array(heap);
let top = 16; // address 0 stays unused, as in linear memory

// The globals declared in core/portable.d.ts. Addresses are bytes; the cores only use 4- and
// 8-aligned ones, so division (not a shift, which would wrap past 2^31) gives the element index.
Object.assign(globalThis, {
  loadI32: (base: number, i: number): number => i32[base / 4 + i]!,
  storeI32: (base: number, i: number, value: number): void => {
    i32[base / 4 + i] = value;
  },
  loadF64: (base: number, i: number): number => f64[base / 8 + i]!,
  storeF64: (base: number, i: number, value: number): void => {
    f64[base / 8 + i] = value;
  },
  clz32: Math.clz32,
  // |x| < 2^31 here, where `| 0` is truncation toward zero, like i32.trunc_f64_s.
  trunc32: (x: number): number => x | 0,
  mul32: Math.imul,
  lnPortable,
  expPortable,
  log2Portable,
  powPortable,
});

/** A bump allocator: memory is only given back by `reset`, between computations. */
function alloc(bytes: number): number {
  // Arithmetic, not bit masks (which wrap past 2^31); the heap grows in whole 16-byte units so
  // that its f64 view stays valid (a length that is not a multiple of 8 made it throw a RangeError).
  const ptr = Math.ceil(top / 16) * 16;
  const end = ptr + Math.max(16, Math.ceil(bytes));
  if (end > heap.byteLength) {
    const grown = new ArrayBuffer(Math.max(Math.ceil(end / 16) * 16, 2 * heap.byteLength));
    new Uint8Array(grown).set(new Uint8Array(heap, 0, top));
    heap = grown;
    i32 = new Int32Array(heap);
    f64 = new Float64Array(heap);
  }
  top = end;
  return ptr;
}

/**
 * The TypeScript engine, with an empty heap: each computation copies its matrix in again (this
 * engine is the reference, so it keeps no state between calls).
 */
export function typescriptEngine(): FeatureEngine {
  top = 16;
  return {
    name: 'typescript',
    resident(a: CsrMatrix, fn: string) {
      const rowPtr = alloc(4 * (a.rows + 1));
      const colIdx = alloc(4 * a.nnz);
      const rows = new Int32Array(heap, rowPtr, a.rows + 1);
      const cols = new Int32Array(heap, colIdx, a.nnz);
      writeRowPtr(a, rows);
      cols.set(a.colIdx);
      checkResidentCopy(fn, a, rows, cols);
      return { rowPtr, colIdx };
    },
    alloc,
    free: () => undefined,
    readF64: (ptr, count) => new Float64Array(heap, ptr, count).slice(),
    readI32: (ptr, count) => new Int32Array(heap, ptr, count).slice(),
    zeroF64: (ptr, count) => new Float64Array(heap, ptr, count).fill(0),
    writeF64: (ptr, values) => new Float64Array(heap, ptr, values.length).set(values),
    rowLengthFeatures,
    scanRows,
    scanDraws,
    bandwidthOf,
    graphFeatures,
    reuseWindow,
    spmmTerms,
    bfsTerms,
    bfsLevelTerms,
    msbfsTerms,
  };
}
