// User operator code in a WebAssembly module (wasm32), called through a small ABI that mirrors the
// C one of native/include/dype_operator.h (documented in docs/operators.md):
//
//   alloc(bytes: i32) -> i32         an allocation in the module's memory (0: out of memory)
//   free(ptr: i32)                   releases one
//   <kernel>(operands: i32, count: i32, rowBegin: i32, rowEnd: i32, out: i32,
//            error: i32, errorSize: i32) -> i32   0 on success; else a NUL-terminated message in error
//
// with `memory` exported. Operand descriptors are 8 little-endian i32s each: kind (0 dense, 1 CSR),
// precision (4 f32, 8 f64), rows, cols, data, rowPtr (rows + 1 i32 offsets), colIdx, values (0 for a
// pattern); the output descriptor is 4 i32s: rows (rowEnd - rowBegin), cols, precision, data. Each
// call copies the operands into the module's memory and the output back out, and frees what it
// allocated, also when the kernel fails: a module holds nothing between calls.

import type { CsrMatrix } from '../data/csr.js';
import { DenseMatrix } from '../data/dense.js';
import { describe, InvalidArgumentError, LimitError } from '../errors.js';
import type { UserImplementation, UserOperand } from './define.js';

/** A module's bytes or the module compiled. */
export type WasmSource = WebAssembly.Module | ArrayBuffer | ArrayBufferView;
/** What the module imports, by module and name (as WebAssembly.instantiate takes them). */
export type WasmImports = Record<string, Record<string, unknown>>;

interface KernelExports {
  readonly memory: WebAssembly.Memory;
  alloc(bytes: number): number;
  free(ptr: number): void;
  [kernel: string]: unknown;
}

const OPERAND_BYTES = 32;
const OUTPUT_BYTES = 16;
const ERROR_BYTES = 1024;
/** Largest block one call may ask the module for: wasm32 addresses 4 GiB in all. */
const MAX_BLOCK = 2 ** 31 - 1;

/** The module's instance, compiled and instantiated once; `env.abort` (AssemblyScript's) throws. */
function instantiate(fn: string, source: WasmSource, imports: WasmImports): KernelExports {
  let module: WebAssembly.Module;
  try {
    module = source instanceof WebAssembly.Module ? source : new WebAssembly.Module(source as ArrayBuffer);
  } catch (cause) {
    throw new InvalidArgumentError(`${fn}: source is not a WebAssembly module: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
  const abort = (): never => {
    throw new Error('the module aborted');
  };
  let instance: WebAssembly.Instance;
  try {
    instance = new WebAssembly.Instance(module, { ...imports, env: { abort, ...(imports['env'] ?? {}) } } as never);
  } catch (cause) {
    throw new InvalidArgumentError(
      `${fn}: the module cannot be instantiated (its imports: ${
        WebAssembly.Module.imports(module)
          .map((i) => `${i.module}.${i.name}`)
          .join(', ') || 'none'
      }): ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
  }
  const e = instance.exports as Partial<KernelExports>;
  if (!(e.memory instanceof WebAssembly.Memory)) throw new InvalidArgumentError(`${fn}: the module must export its memory as "memory"`);
  for (const name of ['alloc', 'free'] as const) {
    if (typeof e[name] !== 'function')
      throw new InvalidArgumentError(
        `${fn}: the module must export ${name === 'alloc' ? 'alloc(bytes: i32) -> i32' : 'free(ptr: i32)'} (see docs/operators.md)`,
      );
  }
  return e as KernelExports;
}

/** A call's allocations in the module, released together. */
class Blocks {
  private readonly held: number[] = [];
  constructor(
    private readonly e: KernelExports,
    private readonly where: string,
  ) {}

  /** `bytes` in the module's memory (8-byte aligned by the module's allocator, as C's malloc is). */
  alloc(bytes: number): number {
    if (bytes > MAX_BLOCK) throw new LimitError(`${this.where}: ${bytes} bytes do not fit a wasm32 module's memory`);
    const p = Number(this.e.alloc(Math.max(bytes, 8))) >>> 0;
    if (p === 0) throw new LimitError(`${this.where}: the module could not allocate ${bytes} bytes (alloc returned 0)`);
    this.held.push(p);
    return p;
  }

  /** Copy `array` in; its address. */
  copyIn(array: ArrayBufferView): number {
    const p = this.alloc(array.byteLength);
    new Uint8Array(this.e.memory.buffer, p, array.byteLength).set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
    return p;
  }

  release(): void {
    for (const p of this.held.splice(0)) this.e.free(p);
  }
}

/** CSR row pointers as wasm32 offsets. */
function rowPointers(where: string, a: CsrMatrix): Int32Array {
  if (a.rowPtr instanceof Int32Array) return a.rowPtr;
  if (a.nnz > MAX_BLOCK) throw new LimitError(`${where}: ${a.nnz} stored entries do not fit a wasm32 module`);
  return Int32Array.from(a.rowPtr, (p) => Number(p));
}

/** Write one operand's descriptor at `at` (its arrays copied in through `blocks`). */
function describeOperand(where: string, memory: WebAssembly.Memory, at: number, x: UserOperand, blocks: Blocks): void {
  const words =
    x instanceof DenseMatrix
      ? [0, x.precision === 'f32' ? 4 : 8, x.rows, x.cols, blocks.copyIn(x.data), 0, 0, 0]
      : [
          1,
          x.values instanceof Float64Array ? 8 : 4,
          x.rows,
          x.cols,
          0,
          blocks.copyIn(rowPointers(where, x)),
          blocks.copyIn(x.colIdx),
          x.values ? blocks.copyIn(x.values) : 0,
        ];
  // A view made after the copies: an allocation may have grown (detached) the memory.
  const view = new DataView(memory.buffer);
  words.forEach((w, k) => view.setInt32(at + 4 * k, w, true));
}

/** The NUL-terminated message at `p` (at most ERROR_BYTES). */
function message(memory: WebAssembly.Memory, p: number): string {
  const bytes = new Uint8Array(memory.buffer, p, ERROR_BYTES);
  const end = bytes.indexOf(0);
  return new TextDecoder().decode(bytes.subarray(0, end < 0 ? ERROR_BYTES : end)) || 'no message';
}

/**
 * An implementation for defineOperator's `devices` that calls export `kernel` of a WebAssembly
 * module (its bytes, or a compiled WebAssembly.Module), instantiated once with `imports`
 * (`env.abort` is provided). The module's ABI is in this file's header and docs/operators.md.
 * Kernels take no params (as native ones).
 * @throws {InvalidArgumentError} for a source that is not a module, or a module lacking `memory`,
 *   `alloc`, `free` or `kernel`.
 * @example
 * defineOperator({ ..., devices: { cpu: wasmImplementation(readFileSync('rowscale.wasm'), 'row_scale') } });
 */
export function wasmImplementation(source: WasmSource, kernel: string, imports: WasmImports = {}): UserImplementation {
  const fn = 'wasmImplementation';
  if (typeof kernel !== 'string' || kernel.length === 0) throw new InvalidArgumentError(`${fn}: kernel must be the name of an export, got ${describe(kernel)}`);
  if (imports === null || typeof imports !== 'object') throw new InvalidArgumentError(`${fn}: imports must be an object, got ${describe(imports)}`);
  const e = instantiate(fn, source, imports);
  const call = e[kernel];
  if (typeof call !== 'function') throw new InvalidArgumentError(`${fn}: the module has no function export ${JSON.stringify(kernel)}`);
  return (operands, [begin, end], _params, output) => {
    const where = `${fn}(${kernel})`;
    const blocks = new Blocks(e, where);
    try {
      const descriptors = blocks.alloc(OPERAND_BYTES * operands.length);
      const outDescriptor = blocks.alloc(OUTPUT_BYTES);
      const bytesPer = output.precision === 'f32' ? 4 : 8;
      const rows = end - begin;
      const outData = blocks.alloc(rows * output.cols * bytesPer);
      const error = blocks.alloc(ERROR_BYTES);
      // Views are taken after the allocations they follow: the module may grow (and so detach) its memory.
      operands.forEach((x, k) => describeOperand(where, e.memory, descriptors + OPERAND_BYTES * k, x, blocks));
      const outView = new DataView(e.memory.buffer);
      [rows, output.cols, bytesPer, outData].forEach((w, k) => outView.setInt32(outDescriptor + 4 * k, w, true));
      new Uint8Array(e.memory.buffer, error, 1)[0] = 0;
      const status = (call as (...a: number[]) => number)(descriptors, operands.length, begin, end, outDescriptor, error, ERROR_BYTES);
      // Wrapped by the operator's record into an OperatorError naming the operator.
      if (status !== 0) throw new Error(`${where} returned ${status}: ${message(e.memory, error)}`);
      const n = rows * output.cols;
      const data = output.precision === 'f32' ? new Float32Array(n) : new Float64Array(n);
      new Uint8Array(data.buffer).set(new Uint8Array(e.memory.buffer, outData, n * bytesPer));
      return new DenseMatrix(rows, output.cols, data);
    } finally {
      blocks.release();
    }
  };
}
