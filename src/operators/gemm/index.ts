// GEMM: a dense matrix product, split by output rows; computed on the host (native on the CPU), or by
// cuBLAS on a CUDA GPU where it was found.

import type { DenseMatrix } from '../../data/dense.js';
import { nativeGemm } from '../../kernels/dense.js';
import { gemm as gemmRows } from '../../workloads/dense/gemm.js';
import type { OperatorKind } from '../kind.js';
import { boundDims, denseCalibration, dims, elementBytes } from '../shared.js';
import { denseFeatures } from '../../generators/dense.js';

export const gemm: OperatorKind = {
  name: 'gemm',
  description: 'dense matrix product',
  operands: ['dense', 'dense'],
  params: [],
  output: 'dense',
  builtin: true,
  splittable: true,
  bind(ctx) {
    const [x, w] = ctx.operands as [(typeof ctx.operands)[0], (typeof ctx.operands)[0]];
    if (x.cols !== w.rows) ctx.fail(`${boundDims(x)} but ${boundDims(w)}: inner dimensions differ`);
    const p = x.precision;
    const outBytes = x.rows * w.cols * elementBytes(p);
    return {
      output: { kind: 'dense', rows: x.rows, cols: w.cols, entries: x.rows * w.cols, bytes: outBytes, precision: p },
      units: x.rows,
      split: 'rows',
      whole: [false, true],
      flops: 2 * x.rows * x.cols * w.cols,
      bytes: x.bytes + w.bytes + outBytes,
    };
  },
  shape(names, s, _params, fail) {
    const [a, b] = s as [(typeof s)[0], (typeof s)[0]];
    const [na, nb] = names as [string, string];
    if (a.cols !== b.rows) fail(`${dims(na, a)} but ${dims(nb, b)}: inner dimensions differ`);
    return { kind: 'dense', rows: a.rows, cols: b.cols, precision: a.precision };
  },
  reference: (_op, x) => gemmRows(x[0] as DenseMatrix, x[1] as DenseMatrix),
  calibration: (quick) =>
    denseCalibration(quick, (r, p, s) => [
      denseFeatures({ rows: r, cols: 64, precision: p, seed: s }),
      denseFeatures({ rows: 64, cols: 64, precision: p, seed: s + 100 }),
    ]),
  execution: {
    on: 'host',
    native: (_op, x, range) => nativeGemm(x[0] as DenseMatrix, x[1] as DenseMatrix, range),
    compute: (_op, x, range) => gemmRows(x[0] as DenseMatrix, x[1] as DenseMatrix, range),
    onDevice: { gpu: { needs: 'blas', run: (_op, x, range, keep) => nativeGemm(x[0] as DenseMatrix, x[1] as DenseMatrix, range, 'gpu', keep) } },
  },
};
