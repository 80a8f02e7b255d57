// Edge softmax: attention scores on a graph's edges (an SDDMM's output) normalised per row over
// the sparse pattern, the step between scoring edges and aggregating along them in a GAT layer.
// Computed on the host; split by rows balanced by nonzeros.

import type { CsrMatrix } from '../../data/csr.js';
import type { OperatorKind } from '../kind.js';
import { bytesOfSparse } from '../shared.js';
import { edgeSoftmax } from './rows.js';

export const edgeSoftmaxKind: OperatorKind = {
  name: 'edge-softmax',
  description: "per-row softmax of a sparse matrix's stored values (attention over a vertex's edges)",
  operands: ['sparse'],
  params: [],
  output: 'sparse',
  builtin: true,
  splittable: true,
  bind(ctx) {
    const s = ctx.operands[0]!;
    const output = {
      kind: 'sparse' as const,
      rows: s.rows,
      cols: s.cols,
      entries: s.entries,
      bytes: bytesOfSparse(s.pattern!, s.precision),
      precision: s.precision,
      pattern: s.pattern!,
    };
    return {
      output,
      units: s.rows,
      split: 'rows',
      whole: [false],
      // max, exp, sum and divide per stored value (exp counted as one).
      flops: 4 * s.entries,
      bytes: s.bytes + output.bytes,
    };
  },
  shape: (_names, s) => ({ kind: 'sparse', rows: s[0]!.rows, cols: s[0]!.cols, precision: s[0]!.precision }),
  reference: (_op, x) => edgeSoftmax(x[0] as CsrMatrix),
  execution: {
    on: 'host',
    compute: (_op, x, range) => edgeSoftmax(x[0] as CsrMatrix, range),
  },
};
