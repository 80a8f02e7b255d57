// A user-defined operator for the tests: each row of X scaled by its row's sum in A (a degree
// scaling), with a reference and CPU / simulated-GPU code written independently of dype's kernels.

import type { CsrMatrix } from '../../src/data/csr.js';
import { DenseMatrix } from '../../src/data/dense.js';
import { defineOperator, type UserOperatorSpec } from '../../src/operators/define.js';

/** Rows `[begin, end)` of diag(rowsum(a)) * x, in x's precision. */
export function rowScale(a: CsrMatrix, x: DenseMatrix, begin = 0, end = a.rows): DenseMatrix {
  const out = x.precision === 'f32' ? new Float32Array((end - begin) * x.cols) : new Float64Array((end - begin) * x.cols);
  for (let i = begin; i < end; i++) {
    let sum = 0;
    for (let p = Number(a.rowPtr[i]!); p < Number(a.rowPtr[i + 1]!); p++) sum += a.values ? a.values[p]! : 1;
    for (let j = 0; j < x.cols; j++) out[(i - begin) * x.cols + j] = sum * x.data[i * x.cols + j]!;
  }
  return new DenseMatrix(end - begin, x.cols, out);
}

/** The spec of `row-scale` (a name of one's own), with `overrides`. */
export function rowScaleSpec(overrides: Partial<UserOperatorSpec> = {}): UserOperatorSpec {
  return {
    name: 'row-scale',
    inputs: ['sparse', 'dense'],
    output: ([a, x]) => {
      if (a!.rows !== x!.rows) throw new Error(`row-scale: x needs ${a!.rows} rows, got ${x!.rows}`);
      return { rows: a!.rows, cols: x!.cols };
    },
    reference: ([a, x]) => rowScale(a as CsrMatrix, x as DenseMatrix),
    devices: {
      cpu: ([a, x], [b, e]) => rowScale(a as CsrMatrix, x as DenseMatrix, b, e),
      'gpu-sim': ([a, x], [b, e]) => rowScale(a as CsrMatrix, x as DenseMatrix, b, e),
    },
    ...overrides,
  };
}

/** Register `row-scale` (once per test file: each runs in its own worker). */
export function defineRowScale(overrides: Partial<UserOperatorSpec> = {}): void {
  defineOperator(rowScaleSpec(overrides));
}
