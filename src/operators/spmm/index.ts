// SpMM and SpMV: a sparse matrix times a dense matrix (a one-column one for SpMV), split by
// output rows balanced by nonzeros; device kernels priced by the cost model.

import type { CsrMatrix } from '../../data/csr.js';
import type { DenseMatrix } from '../../data/dense.js';
import type { Operator } from '../../devices/device.js';
import { spmmReference } from '../../kernels/reference.js';
import type { OperatorKind } from '../kind.js';
import { boundDims, dims, elementBytes, toDense } from '../shared.js';

function product(name: 'spmm' | 'spmv', description: string): OperatorKind {
  return {
    name,
    description,
    operands: ['sparse', 'dense'],
    params: [],
    output: 'dense',
    builtin: true,
    splittable: true,
    bind(ctx) {
      const [a, x] = ctx.operands as [(typeof ctx.operands)[0], (typeof ctx.operands)[0]];
      if (a.cols !== x.rows) ctx.fail(`${boundDims(a)} but ${boundDims(x)}: inner dimensions differ`);
      if (name === 'spmv' && x.cols !== 1) ctx.fail(`spmv needs a one-column vector, ${boundDims(x)}`);
      const p = x.precision;
      const outBytes = a.rows * x.cols * elementBytes(p);
      return {
        output: { kind: 'dense', rows: a.rows, cols: x.cols, entries: a.rows * x.cols, bytes: outBytes, precision: p },
        units: a.rows,
        split: 'rows',
        whole: [false, true],
        flops: 2 * a.entries * x.cols,
        bytes: a.bytes + x.bytes + outBytes,
      };
    },
    shape(names, s, _params, fail) {
      const [a, b] = s as [(typeof s)[0], (typeof s)[0]];
      const [na, nb] = names as [string, string];
      if (a.cols !== b.rows) fail(`${nb} has ${b.rows} rows but ${na} has ${a.cols} columns (${dims(na, a)})`);
      if (name === 'spmv' && b.cols !== 1) fail(`${nb} must be a one-column vector, ${dims(nb, b)}`);
      return { kind: 'dense', rows: a.rows, cols: b.cols, precision: b.precision };
    },
    reference(_op, x) {
      const a = x[0] as CsrMatrix;
      const d = x[1] as DenseMatrix;
      return toDense(a.rows, d.cols, spmmReference(a, d.data, d.cols), d.precision);
    },
    execution: {
      on: 'device',
      async run(device, _op, x, range, options) {
        const result = await device.run({ kind: name } as Operator & { kind: 'spmm' }, { a: x[0] as CsrMatrix, x: x[1] as DenseMatrix }, range, options);
        return { output: result.output, result };
      },
      costShape(op, values, begin, end, full) {
        const a = values[op.operands[0]!]!.pattern!;
        const x = values[op.operands[1]!]!;
        return { kind: name, a, k: x.cols, precision: x.precision, ...(full ? {} : { range: [begin, end] as const }) };
      },
    },
  };
}

export const spmm = product('spmm', 'sparse x dense matrix product, split by output rows');
export const spmv = product('spmv', 'sparse matrix x vector (a one-column dense matrix)');
