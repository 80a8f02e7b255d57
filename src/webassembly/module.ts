// Loads the AssemblyScript module (wasm/dype.wasm) once. Host imports are declared here and only
// here; AssemblyScript's `abort` becomes a thrown NativeError instead of a trap with no message.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NativeError } from '../errors.js';
import { packageRoot } from '../native/addon.js';

export interface WasmExports {
  readonly memory: WebAssembly.Memory;
  alloc(bytes: number): number;
  free(ptr: number): void;
  rowLengthStats(rowPtr: number, rows: number, out: number): number;
  readonly ROW_STATS_FIELDS: WebAssembly.Global;
  // Feature extraction (src/cost/core, compiled through assembly/features.ts): the signatures
  // of the portable cores, with booleans passed as 0/1.
  rowLengthFeatures(rowPtr: number, rows: number, work: number, table: number, heavy: number, distinct: number, out: number): number;
  scanRows(rowPtr: number, colIdx: number, first: number, last: number, minLen: number, maxLen: number, work: number, out: number): void;
  scanDraws(rowPtr: number, colIdx: number, rows: number, maxLen: number, draws: number, seed: number, work: number, out: number): void;
  bandwidthOf(rowPtr: number, colIdx: number, rows: number, sorted: boolean): number;
  graphFeatures(rowPtr: number, colIdx: number, n: number, wanted: number, sources: number, work: number, out: number): number;
  reuseWindow(colIdx: number, begin: number, end: number, lastCol: number, lastBlock: number, work: number, out: number): void;
  // The cost terms (src/cost/core/cost-terms.ts, through assembly/cost-model.ts), booleans as 0/1.
  readonly MF_FIELDS: WebAssembly.Global;
  readonly GF_FIELDS: WebAssembly.Global;
  readonly SPMM_TERMS: WebAssembly.Global;
  readonly BFS_TERMS: WebAssembly.Global;
  readonly MSBFS_TERMS: WebAssembly.Global;
  spmmTerms(mf: number, k: number, elemBytes: number, rowsR: number, nnzR: number, near: number, far: number, out: number): void;
  bfsTerms(gf: number, near: number, far: number, out: number): void;
  bfsLevelTerms(
    gf: number,
    near: number,
    far: number,
    frontier: number,
    frontierEdges: number,
    unvisited: number,
    bottomUp: number,
    call: number,
    out: number,
  ): void;
  msbfsTerms(gf: number, sources: number, lanes: number, near: number, far: number, out: number): void;
  predictSpmm(
    mf: number,
    k: number,
    elemBytes: number,
    rowsR: number,
    nnzR: number,
    near: number,
    far: number,
    tc: number,
    ec: number,
    terms: number,
    out: number,
  ): void;
  predictBfs(gf: number, near: number, far: number, tc: number, ec: number, terms: number, out: number): void;
  predictBfsLevel(
    gf: number,
    near: number,
    far: number,
    frontier: number,
    frontierEdges: number,
    unvisited: number,
    bottomUp: number,
    call: number,
    tc: number,
    ec: number,
    terms: number,
    out: number,
  ): void;
  predictMsbfs(gf: number, sources: number, lanes: number, near: number, far: number, tc: number, ec: number, terms: number, out: number): void;
  _initialize(): void;
}

let cached: WasmExports | undefined;

function readString(memory: WebAssembly.Memory, ptr: number): string {
  if (ptr === 0) return '';
  // AssemblyScript strings: UTF-16 code units, byte length stored 4 bytes before the data.
  const bytes = new Uint32Array(memory.buffer, ptr - 4, 1)[0]!;
  return String.fromCharCode(...new Uint16Array(memory.buffer, ptr, bytes >>> 1));
}

/**
 * The instantiated WebAssembly module, loaded synchronously on first use.
 * @throws {NativeError} when wasm/dype.wasm is missing (run `npm run build:wasm`).
 */
export function wasmModule(): WasmExports {
  if (cached) return cached;
  const path = process.env['DYPE_WASM'] ?? join(packageRoot, 'wasm', 'dype.wasm');
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (cause) {
    throw new NativeError(`wasmModule: cannot read ${path}; build it with \`npm run build:wasm\``, { cause });
  }
  let memory: WebAssembly.Memory | undefined;
  const imports = {
    env: {
      abort(message: number, file: number, line: number, column: number): never {
        const m = memory ? readString(memory, message) : '';
        const f = memory ? readString(memory, file) : '';
        throw new NativeError(`wasm: ${m || 'abort'} at ${f}:${line}:${column}`);
      },
    },
  };
  const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), imports);
  const exports = instance.exports as unknown as WasmExports;
  memory = exports.memory;
  exports._initialize();
  cached = exports;
  return exports;
}

/**
 * A block of WebAssembly linear memory holding a copy of `src`, freed by `release()`. Views of
 * memory must be re-created after any call that may grow it, so this hands out addresses only.
 */
export function copyIntoWasm(src: Int32Array | Float64Array): { readonly ptr: number; release(): void } {
  const wasm = wasmModule();
  const ptr = wasm.alloc(src.byteLength);
  new Uint8Array(wasm.memory.buffer, ptr, src.byteLength).set(new Uint8Array(src.buffer, src.byteOffset, src.byteLength));
  return { ptr, release: () => wasm.free(ptr) };
}
