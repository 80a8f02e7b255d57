// User operator code in a native shared library, called through the C ABI of
// native/include/dype_operator.h: the library is loaded and the symbol found when the
// implementation is made (so a missing one is refused at definition), and each call hands the
// kernel checked operands and an output buffer of exactly the piece's rows.

import type { CsrMatrix } from '../data/csr.js';
import { DenseMatrix } from '../data/dense.js';
import { describe, InvalidArgumentError, NativeError } from '../errors.js';
import { nativeAddon } from '../native/addon.js';
import type { UserImplementation } from './define.js';

interface UserKernelAddon {
  userLibraryOpen(path: string): number;
  userKernelFind(library: number, symbol: string): number;
  userKernelCall(
    kernel: number,
    operands: readonly object[],
    rowBegin: number,
    rowEnd: number,
    outRows: number,
    outCols: number,
    out: Float32Array | Float64Array,
  ): void;
}

/** Libraries already loaded, by path (dlopen once per path). */
const LOADED = new Map<string, number>();

function addon(fn: string): UserKernelAddon {
  const a = nativeAddon() as unknown as Partial<UserKernelAddon>;
  if (typeof a.userLibraryOpen !== 'function' || typeof a.userKernelFind !== 'function' || typeof a.userKernelCall !== 'function') {
    throw new NativeError(`${fn}: the native addon has no user-kernel support; rebuild it with \`npm run build:native\``);
  }
  return a as UserKernelAddon;
}

/**
 * An implementation for defineOperator's `devices` that calls `symbol` of the shared library at
 * `path` (a `dype_kernel_fn`, see native/include/dype_operator.h and docs/operators.md). Native
 * kernels take no params (ABI version 1).
 * @throws {InvalidArgumentError} for a path or symbol that is not a non-empty string.
 * @throws {NativeError} when the library cannot be loaded or has no such symbol.
 * @example
 * defineOperator({ ..., devices: { cpu: nativeImplementation('./librowscale.so', 'row_scale') } });
 */
export function nativeImplementation(path: string, symbol: string): UserImplementation {
  const fn = 'nativeImplementation';
  if (typeof path !== 'string' || path.length === 0) throw new InvalidArgumentError(`${fn}: path must be a non-empty string, got ${describe(path)}`);
  if (typeof symbol !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(symbol))
    throw new InvalidArgumentError(`${fn}: symbol must be a C identifier, got ${describe(symbol)}`);
  const a = addon(fn);
  let library = LOADED.get(path);
  if (library === undefined) {
    try {
      library = a.userLibraryOpen(path);
    } catch (cause) {
      throw new NativeError(`${fn}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    }
    LOADED.set(path, library);
  }
  const kernel = a.userKernelFind(library, symbol);
  if (kernel < 0) throw new NativeError(`${fn}: ${path} has no symbol ${JSON.stringify(symbol)}`);
  return (operands, [begin, end], _params, output) => {
    const flat = operands.map((x) =>
      x instanceof DenseMatrix
        ? { kind: 0, rows: x.rows, cols: x.cols, data: x.data }
        : { kind: 1, rows: (x as CsrMatrix).rows, cols: (x as CsrMatrix).cols, rowPtr: x.rowPtr, colIdx: x.colIdx, values: x.values ?? null },
    );
    const rows = end - begin;
    const out = output.precision === 'f32' ? new Float32Array(rows * output.cols) : new Float64Array(rows * output.cols);
    a.userKernelCall(kernel, flat, begin, end, output.rows, output.cols, out);
    return new DenseMatrix(rows, output.cols, out);
  };
}
