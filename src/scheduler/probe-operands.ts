// What a probe runs an operator on: the real sparse input, and stand-ins for the dense values a
// plan computes before the operator runs (they do not exist while planning).

import { newDenseArray } from '../data/aligned.js';
import { DenseMatrix } from '../data/dense.js';
import type { BoundOp, BoundWorkload } from '../workloads/bind.js';

/** The value written into a probe's stand-in operands: finite, nonzero, exact in both precisions. */
export const PROBE_FILL = 0.5;

/**
 * A probe's operands: the sparse input itself, and for dense data that does not exist yet a
 * stand-in of its shape with every element written. A fresh zeroed array's pages all map the
 * kernel's one zero page until written: an SpMM gathering from it ran 1.4-1.8x faster than on
 * real data (`bench/kernels/untouched-input.ts`), and the probes priced the CPU low.
 */
export function probeOperands(bound: BoundWorkload, op: BoundOp): unknown[] {
  return op.operands.map((v) => {
    const val = bound.values[v]!;
    if (val.data) return val.data;
    if (val.kind === 'sparse') return val.pattern!;
    const n = val.rows * val.cols;
    // On a 64-byte boundary, as the run's own arrays are (src/data/aligned.ts): a probe on
    // misaligned data would price the CPU up to 1.6x slow.
    return new DenseMatrix(val.rows, val.cols, newDenseArray(val.precision, n).fill(PROBE_FILL), {
      allowNonFinite: true, // finite by construction: no scan
    });
  });
}
