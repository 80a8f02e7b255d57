// Joining the pieces of a split operator into its output, in unit order: rows of a dense or
// sparse result, sources of a multi-source BFS, partial accumulators of a reduction.

import { CsrMatrix } from '../data/csr.js';
import { DenseMatrix } from '../data/dense.js';
import type { BoundOp } from '../workloads/bind.js';
import { combineReduce, concatCsrRows, concatRows, finishReduce } from '../workloads/dense-kernels.js';
import type { Value } from '../workloads/reference.js';

/** Join the outputs of `op`'s pieces over `ranges` (in unit order) into its output. */
export function joinPieces(op: BoundOp, ranges: readonly (readonly [number, number])[], outputs: readonly Value[], out: { rows: number; precision: 'f32' | 'f64' }): Value {
  if (op.kind === 'reduce') {
    const acc = outputs.length === 1 ? (outputs[0] as DenseMatrix) : combineReduce(op.reduceOp ?? 'sum', outputs as DenseMatrix[]);
    return finishReduce(op.reduceOp ?? 'sum', acc, out.precision);
  }
  if (outputs.length === 1) return outputs[0]!;
  if (op.kind === 'msbfs') {
    const parts = outputs as Int32Array[];
    const all = new Int32Array(parts.reduce((s, p) => s + p.length, 0));
    let at = 0;
    for (const p of parts) {
      all.set(p, at);
      at += p.length;
    }
    return all;
  }
  if (outputs[0] instanceof CsrMatrix) return concatCsrRows(ranges.map((range, j) => ({ range, matrix: outputs[j] as CsrMatrix })), out.rows);
  if (outputs[0] instanceof DenseMatrix) return concatRows(ranges.map((range, j) => ({ range, matrix: outputs[j] as DenseMatrix })), out.rows);
  throw new Error(`runPlan: cannot join the parts of ${op.id}`);
}
