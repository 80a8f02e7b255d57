// Joining the pieces of a split operator into its output, in unit order: rows of a dense or
// sparse result, sources of a multi-source BFS, partial accumulators of a reduction.

import { CsrMatrix } from '../data/csr.js';
import { DenseMatrix } from '../data/dense.js';
import type { BoundOp } from '../workloads/bind.js';
import { operatorKind } from '../operators/registry.js';
import { concatCsrRows, concatRows } from '../workloads/dense-kernels.js';
import type { Value } from '../workloads/reference.js';

/** Join the outputs of `op`'s pieces over `ranges` (in unit order) into its output. */
export function joinPieces(
  op: BoundOp,
  ranges: readonly (readonly [number, number])[],
  outputs: readonly Value[],
  out: { rows: number; precision: 'f32' | 'f64' },
): Value {
  // A kind that joins its own way (a reduction's partial accumulators, BFS sources' depths).
  const kind = operatorKind(op.kind, 'runPlan');
  if (kind.join) return kind.join(op, outputs, out.precision);
  if (outputs.length === 1) return outputs[0]!;
  if (outputs[0] instanceof CsrMatrix)
    return concatCsrRows(
      ranges.map((range, j) => ({ range, matrix: outputs[j] as CsrMatrix })),
      out.rows,
    );
  if (outputs[0] instanceof DenseMatrix)
    return concatRows(
      ranges.map((range, j) => ({ range, matrix: outputs[j] as DenseMatrix })),
      out.rows,
    );
  throw new Error(`runPlan: cannot join the parts of ${op.id}`);
}
