// The dense conformance suite's parts: every implementation of the dense operators besides the
// TypeScript reference (the CPU's native kernels, and the CUDA kernels where a GPU answers), and
// the checks against the reference.
//
// Tolerances, per output element, where u is the unit roundoff of the precision (2^-24 for f32,
// 2^-53 for f64) and u64 = 2^-53:
// - relu, affine, add: exact (bit for bit, NaN and -0 included).
// - gemm: (k + 2) * u * sum_p |x_ip w_pj|. The reference sums in f64 and rounds once; a BLAS
//   sgemm (and the built-in kernel) accumulates in f32, in its own order, so each of the k
//   additions may round at f32's u: the classic gamma_k bound, plus the reference's rounding.
// - reduce sum and norm2 (f64 accumulators): (rows + 2) * u64 * sum |x| (or sum x^2): the native
//   kernel adds per-chunk sums in another order. max: exact.
// - sddmm: 2 * u * |ref| + (k + 2) * u64 * sum_t |u_it v_jt| * |a_ij|: both sum in f64 (the
//   native kernel in eight lanes), then round once to the precision.

import { expect } from 'vitest';
import type { CsrMatrix } from '../../../src/data/csr.js';
import { DenseMatrix, type Precision } from '../../../src/data/dense.js';
import type { RowRange } from '../../../src/devices/device.js';
import { nativeAdd, nativeAffine, nativeGemm, nativeReducePartial, nativeRelu, nativeSddmm, type NativeDenseResult } from '../../../src/kernels/dense.js';
import { add, affine, gemm, reducePartial, relu, sddmm, type ReduceOp } from '../../../src/workloads/dense-kernels.js';
import { EPSILON } from '../../support/compare.js';
import { cudaProbe } from '../../../src/devices/backends/gpu.js';

/** One implementation of the dense operators, as the devices that run them call it. */
export interface DenseImplementation {
  readonly name: string;
  /** The name its errors give operator `op` (`gemm` on the CPU, `gpuGemm` on the GPU). */
  fn(op: string): string;
  gemm(x: DenseMatrix, w: DenseMatrix, range?: RowRange): Promise<NativeDenseResult<DenseMatrix>>;
  relu(x: DenseMatrix, range?: RowRange): Promise<NativeDenseResult<DenseMatrix>>;
  affine(x: DenseMatrix, scale: number, shift: number, range?: RowRange): Promise<NativeDenseResult<DenseMatrix>>;
  add(x: DenseMatrix, y: DenseMatrix, range?: RowRange): Promise<NativeDenseResult<DenseMatrix>>;
  reducePartial(x: DenseMatrix, op: ReduceOp, range?: RowRange): Promise<NativeDenseResult<DenseMatrix>>;
  sddmm(a: CsrMatrix, u: DenseMatrix, v: DenseMatrix, range?: RowRange): Promise<NativeDenseResult<CsrMatrix>>;
}

const cpu: DenseImplementation = {
  name: 'cpu (native)',
  fn: (op) => op,
  gemm: nativeGemm,
  relu: nativeRelu,
  affine: nativeAffine,
  add: nativeAdd,
  reducePartial: nativeReducePartial,
  sddmm: nativeSddmm,
};

const gpu: DenseImplementation = {
  name: 'gpu (CUDA)',
  fn: (op) => `gpu${op[0]!.toUpperCase()}${op.slice(1)}`,
  gemm: (x, w, range) => nativeGemm(x, w, range, 'gpu'),
  relu: (x, range) => nativeRelu(x, range, 'gpu'),
  affine: (x, scale, shift, range) => nativeAffine(x, scale, shift, range, 'gpu'),
  add: (x, y, range) => nativeAdd(x, y, range, 'gpu'),
  reducePartial: (x, op, range) => nativeReducePartial(x, op, range, 'gpu'),
  sddmm: (a, u, v, range) => nativeSddmm(a, u, v, range, 'gpu'),
};

/** The CPU's kernels everywhere; the CUDA kernels where a device answers (DYPE_REQUIRE_CUDA=1 insists on one). */
export const DENSE_IMPLEMENTATIONS: readonly DenseImplementation[] = [cpu, ...(cudaProbe().available || requireCuda() ? [gpu] : [])];

function requireCuda(): boolean {
  if (process.env['DYPE_REQUIRE_CUDA'] !== '1') return false;
  throw new Error(`DYPE_REQUIRE_CUDA=1 but ${cudaProbe().reason}`);
}

function expectHonestTime(seconds: number): void {
  expect(Number.isFinite(seconds) && seconds >= 0, `seconds = ${seconds}`).toBe(true);
}

/** Index of the first element where `got` and `want` are not the same number (Object.is), or -1. */
function firstUnequal(got: ArrayLike<number>, want: ArrayLike<number>): number {
  for (let i = 0; i < want.length; i++) if (!Object.is(got[i], want[i])) return i;
  return got.length === want.length ? -1 : want.length;
}

export async function checkGemm(impl: DenseImplementation, x: DenseMatrix, w: DenseMatrix, range: RowRange = [0, x.rows]): Promise<void> {
  const r = await impl.gemm(x, w, range);
  expectHonestTime(r.seconds);
  const want = gemm(x, w, range);
  expect([r.output.rows, r.output.cols, r.output.precision]).toEqual([want.rows, want.cols, want.precision]);
  const u = EPSILON[x.precision];
  const k = x.cols;
  for (let i = 0; i < want.rows; i++) {
    for (let j = 0; j < want.cols; j++) {
      let mag = 0;
      for (let p = 0; p < k; p++) mag += Math.abs(x.data[(range[0] + i) * k + p]! * w.data[p * w.cols + j]!);
      const got = r.output.data[i * want.cols + j]!;
      const ref = want.data[i * want.cols + j]!;
      if (Number.isNaN(ref)) {
        expect(got, `${impl.name} gemm (${range[0] + i}, ${j}) should be NaN`).toBeNaN();
        continue;
      }
      const tol = (k + 2) * u * mag;
      expect(Math.abs(got - ref), `${impl.name} gemm ${x.precision} ${x.rows}x${k}x${w.cols} at (${range[0] + i}, ${j}): ${got} vs ${ref}`).toBeLessThanOrEqual(
        tol,
      );
    }
  }
}

type MapCase = { op: 'relu' } | { op: 'affine'; scale: number; shift: number } | { op: 'add'; y: DenseMatrix };

export async function checkMap(impl: DenseImplementation, x: DenseMatrix, c: MapCase, range: RowRange = [0, x.rows]): Promise<void> {
  const r = c.op === 'relu' ? await impl.relu(x, range) : c.op === 'affine' ? await impl.affine(x, c.scale, c.shift, range) : await impl.add(x, c.y, range);
  expectHonestTime(r.seconds);
  const want = c.op === 'relu' ? relu(x, range) : c.op === 'affine' ? affine(x, c.scale, c.shift, range) : add(x, c.y, range);
  expect([r.output.rows, r.output.cols, r.output.precision]).toEqual([want.rows, want.cols, want.precision]);
  const bad = firstUnequal(r.output.data, want.data);
  expect(bad, `${impl.name} ${c.op} ${x.precision} rows [${range[0]}, ${range[1]}): first difference at ${bad}`).toBe(-1);
}

export async function checkReduce(impl: DenseImplementation, x: DenseMatrix, op: ReduceOp, range: RowRange = [0, x.rows]): Promise<void> {
  const r = await impl.reducePartial(x, op, range);
  expectHonestTime(r.seconds);
  const want = reducePartial(x, op, range);
  expect([r.output.rows, r.output.cols, r.output.precision]).toEqual([1, x.cols, 'f64']);
  for (let j = 0; j < x.cols; j++) {
    const got = r.output.data[j]!;
    const ref = want.data[j]!;
    if (op === 'max' || Number.isNaN(ref)) {
      expect(Object.is(got, ref), `${impl.name} reduce ${op} column ${j}: ${got} vs ${ref}`).toBe(true);
      continue;
    }
    let mag = 0;
    for (let i = range[0]; i < range[1]; i++) {
      const v = x.data[i * x.cols + j]!;
      mag += op === 'sum' ? Math.abs(v) : v * v;
    }
    const tol = (range[1] - range[0] + 2) * EPSILON.f64 * mag;
    expect(Math.abs(got - ref), `${impl.name} reduce ${op} ${x.precision} column ${j}: ${got} vs ${ref}`).toBeLessThanOrEqual(tol);
  }
}

export async function checkSddmm(impl: DenseImplementation, a: CsrMatrix, u: DenseMatrix, v: DenseMatrix, range: RowRange = [0, a.rows]): Promise<void> {
  const r = await impl.sddmm(a, u, v, range);
  expectHonestTime(r.seconds);
  const want = sddmm(a, u, v, range);
  const got = r.output;
  expect([got.rows, got.cols, got.nnz, got.sortedColumns]).toEqual([want.rows, want.cols, want.nnz, want.sortedColumns]);
  expect(Array.from(got.rowPtr, Number)).toEqual(Array.from(want.rowPtr, Number));
  expect(firstUnequal(got.colIdx, want.colIdx)).toBe(-1);
  const k = u.cols;
  const eps = EPSILON[u.precision];
  const first = a.rowStart(range[0]);
  for (let p = 0; p < want.nnz; p++) {
    // The row of entry p, for u's row.
    let row = range[0];
    while (a.rowStart(row + 1) <= first + p) row++;
    const c = want.colIdx[p]!;
    let mag = 0;
    for (let t = 0; t < k; t++) mag += Math.abs(u.data[row * k + t]! * v.data[c * k + t]!);
    mag *= a.values ? Math.abs(a.values[first + p]!) : 1;
    const ref = want.values![p]!;
    const tol = 2 * eps * Math.abs(ref) + (k + 2) * EPSILON.f64 * mag;
    expect(Math.abs(got.values![p]! - ref), `${impl.name} sddmm entry ${p} (${row}, ${c}): ${got.values![p]} vs ${ref}`).toBeLessThanOrEqual(tol);
  }
}

/** A matrix of `precision` with values that exercise rounding: features scaled by 1000 so sums cancel. */
export function denseOf(rows: number, cols: number, precision: Precision, seed: number, withNaN = false): DenseMatrix {
  let s = seed >>> 0 || 1;
  const n = rows * cols;
  const data = precision === 'f32' ? new Float32Array(n) : new Float64Array(n);
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    data[i] = (s / 2 ** 32 - 0.5) * 1000;
  }
  if (withNaN && n > 0) {
    data[Math.floor(n / 3)] = NaN;
    data[n - 1] = -0;
  }
  return new DenseMatrix(rows, cols, data, { allowNonFinite: withNaN });
}
