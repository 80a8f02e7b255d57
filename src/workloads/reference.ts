// The reference result of a bound workload: every value computed by plain TypeScript kernels, on
// the host, in topological order. The yardstick for the executor and the oracle's source of real
// intermediate data.

import { CsrMatrix } from '../data/csr.js';
import { describe, InvalidArgumentError } from '../errors.js';
import { DenseMatrix, type Precision } from '../data/dense.js';
import { bfsReference, msbfsReference, spmmReference } from '../kernels/reference.js';
import type { BoundWorkload } from './bind.js';
import { add, affine, gemm, reduce, relu, sddmm } from './dense-kernels.js';

/** A computed value: a matrix, or BFS depths (`sources x n` row-major for multi-source). */
export type Value = CsrMatrix | DenseMatrix | Int32Array;

function toDense(rows: number, cols: number, y: Float64Array, p: Precision): DenseMatrix {
  return new DenseMatrix(rows, cols, p === 'f32' ? Float32Array.from(y) : y);
}

/**
 * Every value of `bound` (inputs as given, outputs computed), indexed like `bound.values`.
 * @example
 * const values = referenceValues(bindWorkload(workload('gcn'), graph));
 */
export function referenceValues(bound: BoundWorkload): Value[] {
  const raw = bound as unknown as { values?: unknown; ops?: unknown } | null;
  if (raw === null || typeof raw !== 'object' || !Array.isArray(raw.values) || !Array.isArray(raw.ops)) {
    throw new InvalidArgumentError(`referenceValues: bound must come from bindWorkload, got ${describe(bound)}`);
  }
  const out: Value[] = bound.values.map((v) => v.data as Value);
  for (const op of bound.ops) {
    const x = op.operands.map((i) => out[i]!);
    const o = bound.values[op.output]!;
    let r: Value;
    switch (op.kind) {
      case 'spmm':
      case 'spmv': {
        const a = x[0] as CsrMatrix;
        const d = x[1] as DenseMatrix;
        r = toDense(a.rows, d.cols, spmmReference(a, d.data, d.cols), d.precision);
        break;
      }
      case 'sddmm':
        r = sddmm(x[0] as CsrMatrix, x[1] as DenseMatrix, x[2] as DenseMatrix);
        break;
      case 'gemm':
        r = gemm(x[0] as DenseMatrix, x[1] as DenseMatrix);
        break;
      case 'relu':
        r = relu(x[0] as DenseMatrix);
        break;
      case 'affine':
        r = affine(x[0] as DenseMatrix, op.scale ?? 1, op.shift ?? 0);
        break;
      case 'add':
        r = add(x[0] as DenseMatrix, x[1] as DenseMatrix);
        break;
      case 'reduce':
        r = reduce(x[0] as DenseMatrix, op.reduceOp ?? 'sum');
        break;
      case 'bfs':
        r = bfsReference(x[0] as CsrMatrix, op.source!);
        break;
      case 'msbfs':
        r = msbfsReference(x[0] as CsrMatrix, op.sources!);
        break;
    }
    if (o.kind === 'dense' && !(r instanceof DenseMatrix)) throw new Error(`referenceValues: ${op.id} produced the wrong kind`);
    out[op.output] = r;
  }
  return out;
}
