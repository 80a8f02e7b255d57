// The dense operators on the CPU's native kernels (native/src/kernels/dense.h): GEMM through
// OpenBLAS or dype's blocked kernel, element-wise maps, reduction partials and SDDMM, each over a
// range of output rows on every core; and the same operators on a CUDA GPU (native/src/cuda/
// dense.cu, GEMM through cuBLAS), over the same arguments (`on: 'gpu'`). Arguments are checked as
// the TypeScript reference checks them (dense-checks.ts), then again natively. Results equal the
// reference (src/workloads/dense/) exactly for relu, affine and add, and within rounding for the
// sums: an f32 GEMM accumulates in f32 as BLAS does; reductions and SDDMM sum in f64 in another order.

import { allocRowPtr, CsrMatrix, type ValueArray } from '../data/csr.js';
import type { DenseMatrix } from '../data/dense.js';
import type { RowRange } from '../devices/device.js';
import { type InlineMode, inlineMode, nativeAddon, type NativeGemmInfo } from '../native/addon.js';
import { checkAdd, checkAffine, checkGemm, checkReduce, checkRelu, checkSddmm, type ReduceOp, wrap } from './dense-checks.js';
import { callNative } from './native-call.js';
import { takeOutput } from './output-pool.js';
import { announceOutputs, type KeepOutputs } from '../devices/kept-outputs.js';
import type { CudaRun } from '../devices/backends/gpu.js';

/** A native dense result and the kernel's own measured time (the CPU device's time for it). */
export interface NativeDenseResult<M> {
  readonly output: M;
  /** The call's wall time on the CPU (the kernel alone); on the GPU, the call's (kernels and copies: see `run`). */
  readonly seconds: number;
  /** On the GPU: the kernels' own time from CUDA events, and the copies beside it. */
  readonly run?: CudaRun;
}

/** Where a dense kernel runs: the CPU's cores, or the CUDA GPU (its kernels' time and copies in `run`). */
export type DenseTarget = 'cpu' | 'gpu';

type DenseEntry = 'gemm' | 'relu' | 'affine' | 'add' | 'reducePartial' | 'sddmm';

/** The call's name, as errors give it: the CPU binding's, or its gpu-prefixed twin's (`gpuGemm`). */
function nameOn(name: DenseEntry, on: DenseTarget): string {
  return on === 'gpu' ? `gpu${name[0]!.toUpperCase()}${name.slice(1)}` : name;
}

/**
 * Call binding `name` on `on` with positional `args`: the CPU's with `inline` last, or its
 * gpu-prefixed twin (same arguments; a GPU call always runs on a worker).
 */
async function invoke(
  on: DenseTarget,
  name: DenseEntry,
  args: readonly unknown[],
  inline: InlineMode,
  outputs: readonly ArrayBufferView[] = [],
  keep?: KeepOutputs,
): Promise<{ seconds: number; run?: CudaRun }> {
  const fn = nameOn(name, on);
  // On the card, a piece may keep what the call writes there (kept-outputs.ts).
  if (on === 'gpu') announceOutputs(outputs, keep);
  const call = (nativeAddon() as unknown as Record<string, (...a: unknown[]) => Promise<{ readonly seconds: number }>>)[fn]!;
  const r = await callNative(fn, () => (on === 'gpu' ? call(...args) : call(...args, inline)));
  return on === 'gpu' ? { seconds: r.seconds, run: r as unknown as CudaRun } : { seconds: r.seconds };
}

/** Flops below which a GEMM runs on the calling thread: a few hundred microseconds, a few times the async round trip. */
const GEMM_INLINE_FLOPS = 1 << 24;

/**
 * Whether an `m x k` by `k x n` product runs on the calling thread rather than a libuv worker.
 * @internal (the benchmarks call the binding the way nativeGemm does)
 */
export function gemmInline(m: number, k: number, n: number): boolean {
  return 2 * m * k * n < GEMM_INLINE_FLOPS;
}

/**
 * `x[begin:end, :] * w` on the CPU (or the GPU, through cuBLAS).
 * @throws {InvalidArgumentError} as the reference `gemm` does.
 * @example
 * const { output: h } = await nativeGemm(features, weights, [0, 1024]);
 */
export async function nativeGemm(
  x: DenseMatrix,
  w: DenseMatrix,
  range?: RowRange,
  on: DenseTarget = 'cpu',
  keep?: KeepOutputs,
): Promise<NativeDenseResult<DenseMatrix>> {
  const fn = nameOn('gemm', on);
  const [begin, end] = checkGemm(fn, x, w, range);
  const y = takeOutput(fn, end - begin, w.cols, x.precision);
  const r = await invoke(on, 'gemm', [x.rows, x.cols, w.cols, x.data, w.data, y, begin, end], gemmInline(end - begin, x.cols, w.cols), [y], keep);
  return { output: wrap(end - begin, w.cols, y), ...r };
}

/**
 * `max(x, 0)` over rows `[begin, end)` on the CPU; -0 and NaN pass through, as in the reference.
 * @throws {InvalidArgumentError} as the reference `relu` does.
 * @example
 * const { output } = await nativeRelu(h);
 */
export async function nativeRelu(x: DenseMatrix, range?: RowRange, on: DenseTarget = 'cpu', keep?: KeepOutputs): Promise<NativeDenseResult<DenseMatrix>> {
  const fn = nameOn('relu', on);
  const [begin, end] = checkRelu(fn, x, range);
  const out = takeOutput(fn, end - begin, x.cols, x.precision);
  const r = await invoke(on, 'relu', [x.rows, x.cols, x.data, out, begin, end], inlineMode(out.length), [out], keep);
  return { output: wrap(end - begin, x.cols, out), ...r };
}

/**
 * `scale * x + shift` over rows `[begin, end)` on the CPU, in f64 and rounded once.
 * @throws {InvalidArgumentError} as the reference `affine` does.
 * @example
 * const { output } = await nativeAffine(rank, 0.85, 0.15 / n);
 */
export async function nativeAffine(
  x: DenseMatrix,
  scale: number,
  shift: number,
  range?: RowRange,
  on: DenseTarget = 'cpu',
  keep?: KeepOutputs,
): Promise<NativeDenseResult<DenseMatrix>> {
  const fn = nameOn('affine', on);
  const [begin, end] = checkAffine(fn, x, scale, shift, range);
  const out = takeOutput(fn, end - begin, x.cols, x.precision);
  const r = await invoke(on, 'affine', [x.rows, x.cols, x.data, scale, shift, out, begin, end], inlineMode(out.length), [out], keep);
  return { output: wrap(end - begin, x.cols, out), ...r };
}

/**
 * `x + y` over rows `[begin, end)` on the CPU.
 * @throws {InvalidArgumentError} as the reference `add` does.
 * @example
 * const { output } = await nativeAdd(h, residual);
 */
export async function nativeAdd(
  x: DenseMatrix,
  y: DenseMatrix,
  range?: RowRange,
  on: DenseTarget = 'cpu',
  keep?: KeepOutputs,
): Promise<NativeDenseResult<DenseMatrix>> {
  const fn = nameOn('add', on);
  const [begin, end] = checkAdd(fn, x, y, range);
  const out = takeOutput(fn, end - begin, x.cols, x.precision);
  const r = await invoke(on, 'add', [x.rows, x.cols, x.data, y.data, out, begin, end], inlineMode(out.length), [out], keep);
  return { output: wrap(end - begin, x.cols, out), ...r };
}

const REDUCE_CODES: Readonly<Record<ReduceOp, 0 | 1 | 2>> = { sum: 0, max: 1, norm2: 2 };

/**
 * The 1 x cols f64 accumulator of a column reduction over rows `[begin, end)`, as the reference
 * `reducePartial` (combine and finish it with `combineReduce` and `finishReduce`).
 * @throws {InvalidArgumentError} as the reference `reducePartial` does.
 * @example
 * const { output: acc } = await nativeReducePartial(x, 'norm2', [0, 500]);
 */
export async function nativeReducePartial(x: DenseMatrix, op: ReduceOp, range?: RowRange, on: DenseTarget = 'cpu'): Promise<NativeDenseResult<DenseMatrix>> {
  const fn = nameOn('reducePartial', on);
  const [begin, end] = checkReduce(fn, x, op, range);
  const acc = new Float64Array(x.cols);
  const r = await invoke(on, 'reducePartial', [x.rows, x.cols, x.data, REDUCE_CODES[op], acc, begin, end], inlineMode((end - begin) * x.cols));
  return { output: wrap(1, x.cols, acc), ...r };
}

/**
 * Sampled dense-dense product over rows `[begin, end)` of `a` on the CPU: the reference `sddmm`'s
 * result (the range's rows of `a`'s structure, values `dot(u[i, :], v[j, :]) * a(i, j)`).
 * @throws {InvalidArgumentError} as the reference `sddmm` does, including for a result that is
 *   not finite in the precision (the message names the entry).
 * @example
 * const { output: scores } = await nativeSddmm(adjacency, q, k);
 */
export async function nativeSddmm(
  a: CsrMatrix,
  u: DenseMatrix,
  v: DenseMatrix,
  range?: RowRange,
  on: DenseTarget = 'cpu',
  keep?: KeepOutputs,
): Promise<NativeDenseResult<CsrMatrix>> {
  const fn = nameOn('sddmm', on);
  const [begin, end] = checkSddmm(fn, a, u, v, range);
  const first = a.rowStart(begin);
  const nnz = a.rowStart(end) - first;
  const rows = end - begin;
  const values: ValueArray = u.precision === 'f32' ? new Float32Array(nnz) : new Float64Array(nnz);
  const args = [a.rows, a.cols, a.rowPtr, a.colIdx, a.values ?? null, u.data, v.data, u.cols, values, begin, end];
  const r = await invoke(on, 'sddmm', args, inlineMode(nnz * Math.max(1, u.cols) + rows), [values], keep);
  const rowPtr = allocRowPtr(rows, nnz);
  for (let r = 1; r <= rows; r++) {
    const e = a.rowStart(begin + r) - first;
    if (rowPtr instanceof Int32Array) rowPtr[r] = e;
    else rowPtr[r] = BigInt(e);
  }
  const colIdx = a.colIdx.slice(first, first + nnz);
  const output = CsrMatrix.trusted({ rows, cols: a.cols, rowPtr, colIdx, values, sortedColumns: a.sortedColumns || sortedRows(colIdx, rowPtr) });
  return { output, ...r };
}

/** Whether every row's columns strictly increase (the reference's test). */
function sortedRows(colIdx: Int32Array, rowPtr: Int32Array | BigInt64Array): boolean {
  for (let r = 0, rows = rowPtr.length - 1; r < rows; r++) {
    for (let p = Number(rowPtr[r]!) + 1, e = Number(rowPtr[r + 1]!); p < e; p++) if (colIdx[p]! <= colIdx[p - 1]!) return false;
  }
  return true;
}

/**
 * Which GEMM the CPU runs: OpenBLAS (version, threading) or dype's built-in kernel and why.
 * @throws {NativeError} when the addon is not built.
 * @example
 * gemmLibrary().library; // 'openblas' or 'builtin'
 */
export function gemmLibrary(): NativeGemmInfo {
  return nativeAddon().gemmInfo();
}
