// SDDMM: the dense product U V^T sampled on a sparse matrix's pattern (scaled by its values);
// computed on the host (native on the CPU) or by a CUDA kernel on a GPU, split by rows balanced by nonzeros.

import type { CsrMatrix } from '../../data/csr.js';
import type { DenseMatrix } from '../../data/dense.js';
import { nativeSddmm } from '../../kernels/dense.js';
import { sddmm as sddmmRows } from '../../workloads/dense/sddmm.js';
import type { OperatorKind } from '../kind.js';
import { boundDims, bytesOfSparse, denseCalibration, dims, elementBytes } from '../shared.js';
import { denseFeatures } from '../../generators/dense.js';
import { kroneckerGraph } from '../../generators/kronecker.js';

export const sddmm: OperatorKind = {
  name: 'sddmm',
  description: "sampled dense-dense product on a sparse matrix's pattern",
  operands: ['sparse', 'dense', 'dense'],
  params: [],
  output: 'sparse',
  builtin: true,
  splittable: true,
  bind(ctx) {
    const [a, u, w] = ctx.operands as [(typeof ctx.operands)[0], (typeof ctx.operands)[0], (typeof ctx.operands)[0]];
    if (u.rows !== a.rows || w.rows !== a.cols || u.cols !== w.cols)
      ctx.fail(`needs U with ${a.rows} rows and V with ${a.cols} rows of equal width; ${boundDims(u)}, ${boundDims(w)}`);
    const p = u.precision;
    const output = {
      kind: 'sparse' as const,
      rows: a.rows,
      cols: a.cols,
      entries: a.entries,
      bytes: bytesOfSparse(a.pattern!, p),
      precision: p,
      pattern: a.pattern!,
    };
    return {
      output,
      units: a.rows,
      split: 'rows',
      whole: [false, false, true],
      flops: 2 * a.entries * u.cols,
      bytes: a.bytes + u.bytes + a.entries * u.cols * elementBytes(p) + output.bytes,
    };
  },
  shape(names, s, _params, fail) {
    const [a, b, c] = s as [(typeof s)[0], (typeof s)[0], (typeof s)[0]];
    const [, nb, nc] = names as [string, string, string];
    if (b.rows !== a.rows || c.rows !== a.cols || b.cols !== c.cols) {
      fail(`needs ${nb} with ${a.rows} rows and ${nc} with ${a.cols} rows, of equal width; ${dims(nb, b)}, ${dims(nc, c)}`);
    }
    return { kind: 'sparse', rows: a.rows, cols: a.cols, precision: b.precision };
  },
  reference: (_op, x) => sddmmRows(x[0] as CsrMatrix, x[1] as DenseMatrix, x[2] as DenseMatrix),
  calibration: (quick) =>
    denseCalibration(quick, (r, p, s) => {
      const a = kroneckerGraph({ scale: Math.log2(r) - 2, seed: s });
      return [a, denseFeatures({ rows: a.rows, cols: 32, precision: p, seed: s }), denseFeatures({ rows: a.cols, cols: 32, precision: p, seed: s + 100 })];
    }),
  execution: {
    on: 'host',
    native: (_op, x, range) => nativeSddmm(x[0] as CsrMatrix, x[1] as DenseMatrix, x[2] as DenseMatrix, range),
    compute: (_op, x, range) => sddmmRows(x[0] as CsrMatrix, x[1] as DenseMatrix, x[2] as DenseMatrix, range),
    onDevice: {
      gpu: { run: (_op, x, range, keep) => nativeSddmm(x[0] as CsrMatrix, x[1] as DenseMatrix, x[2] as DenseMatrix, range, 'gpu', keep) },
    },
  },
};
