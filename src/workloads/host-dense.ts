// Computing one of a workload's dense operators (GEMM, element-wise, reduction partials, SDDMM) on
// the host: on the CPU's native kernels, or with the TypeScript reference. The one switch over
// those operators, shared by the executor's pieces and the planner's probes so both time the same
// code.

import type { CsrMatrix } from '../data/csr.js';
import type { DenseMatrix } from '../data/dense.js';
import type { RowRange } from '../devices/device.js';
import { nativeAdd, nativeAffine, nativeGemm, nativeReducePartial, nativeRelu, nativeSddmm } from '../kernels/dense.js';
import type { BoundOp } from './bind.js';
import { add, affine, gemm, reducePartial, relu, sddmm } from './dense-kernels.js';
import type { Value } from './reference.js';

/** Where host dense work runs: the native kernels on every core, or the single-threaded reference. */
export type HostDenseCode = 'native' | 'reference';

export interface HostDenseResult {
  /** The rows of the output (a reduction's partial accumulator for `reduce`). */
  readonly output: Value;
  /** Compute time: the native kernel's own measured time, or the reference loop's wall time. */
  readonly seconds: number;
}

/**
 * Compute output rows `range` of the dense operator `op` from operand values `x`.
 * @throws {InvalidArgumentError} for operands the operator refuses; {@link Error} for an operator
 *   that is not dense (SpMM, BFS: those are device kernels).
 * @example
 * const { output, seconds } = await computeHostDense(op, [x, w], [0, x.rows], 'native');
 */
export async function computeHostDense(op: BoundOp, x: readonly unknown[], range: RowRange, code: HostDenseCode): Promise<HostDenseResult> {
  const d = (i: number): DenseMatrix => x[i] as DenseMatrix;
  if (code === 'native') {
    let r: { output: Value; seconds: number };
    switch (op.kind) {
      case 'gemm': r = await nativeGemm(d(0), d(1), range); break;
      case 'relu': r = await nativeRelu(d(0), range); break;
      case 'affine': r = await nativeAffine(d(0), op.scale ?? 1, op.shift ?? 0, range); break;
      case 'add': r = await nativeAdd(d(0), d(1), range); break;
      case 'reduce': r = await nativeReducePartial(d(0), op.reduceOp ?? 'sum', range); break;
      case 'sddmm': r = await nativeSddmm(x[0] as CsrMatrix, d(1), d(2), range); break;
      default: throw new Error(`computeHostDense: ${op.kind} is not a dense operator`);
    }
    return r;
  }
  const t0 = performance.now();
  let output: Value;
  switch (op.kind) {
    case 'gemm': output = gemm(d(0), d(1), range); break;
    case 'relu': output = relu(d(0), range); break;
    case 'affine': output = affine(d(0), op.scale ?? 1, op.shift ?? 0, range); break;
    case 'add': output = add(d(0), d(1), range); break;
    case 'reduce': output = reducePartial(d(0), op.reduceOp ?? 'sum', range); break;
    case 'sddmm': output = sddmm(x[0] as CsrMatrix, d(1), d(2), range); break;
    default: throw new Error(`computeHostDense: ${op.kind} is not a dense operator`);
  }
  return { output, seconds: (performance.now() - t0) / 1000 };
}
