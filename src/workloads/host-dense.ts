// Computing one of a workload's host operators (GEMM, element-wise, reduction partials, SDDMM,
// user operators) on the host: on the CPU's native kernels, or with the kind's plain code. Shared
// by the executor's pieces and the planner's probes so both time the same code.

import type { Device, RowRange } from '../devices/device.js';
import type { Value } from '../operators/kind.js';
import { operatorKind } from '../operators/registry.js';
import type { BoundOp } from './bind.js';

/** Where host work runs: the native kernels on every core, or the kind's plain (reference) code. */
export type HostDenseCode = 'native' | 'reference';

export interface HostDenseResult {
  /** The rows of the output (a reduction's partial accumulator for `reduce`). */
  readonly output: Value;
  /** Compute time: the native kernel's own measured time, or the plain code's wall time. */
  readonly seconds: number;
}

/**
 * Compute output rows `range` of the host operator `op` from operand values `x` (for `device`,
 * where the kind has code per device). A kind with no native kernel runs its plain code in both
 * cases, timed by the wall clock.
 * @throws {InvalidArgumentError} for operands the operator refuses; {@link Error} for an operator
 *   that is not computed on the host (SpMM, BFS: those are device kernels).
 * @example
 * const { output, seconds } = await computeHostDense(op, [x, w], [0, x.rows], 'native');
 */
export async function computeHostDense(op: BoundOp, x: readonly unknown[], range: RowRange, code: HostDenseCode, device?: Device): Promise<HostDenseResult> {
  const exec = operatorKind(op.kind, 'computeHostDense').execution;
  if (exec.on !== 'host') throw new Error(`computeHostDense: ${op.kind} is not a dense operator`);
  if (code === 'native' && exec.native) return exec.native(op, x as readonly Value[], range);
  const t0 = performance.now();
  const output = await exec.compute(op, x as readonly Value[], range, device);
  return { output, seconds: (performance.now() - t0) / 1000 };
}
