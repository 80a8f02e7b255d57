// Element-wise operators (relu, affine, add): one output row per input row, never split (a split
// cannot pay for itself); computed on the host (native on the CPU), or by CUDA kernels on a GPU.

import type { DenseMatrix } from '../../data/dense.js';
import { nativeAdd, nativeAffine, nativeRelu } from '../../kernels/dense.js';
import { add as addRows, affine as affineRows, relu as reluRows } from '../../workloads/dense/elementwise.js';
import type { BindContext, BoundShape, OperatorKind, ValueShape } from '../kind.js';
import { boundDims, denseCalibration, dims } from '../shared.js';
import { denseFeatures } from '../../generators/dense.js';

/** Output shaped as the first operand; `flopsPerElement` and `passes` (operand and output sweeps) size the work. */
function sameShape(ctx: BindContext, flopsPerElement: number, passes: number): BoundShape {
  const x = ctx.operands[0]!;
  return {
    output: { kind: 'dense', rows: x.rows, cols: x.cols, entries: x.entries, bytes: x.bytes, precision: x.precision },
    units: x.rows,
    split: 'rows',
    whole: ctx.operands.map(() => false),
    flops: x.entries * flopsPerElement,
    bytes: x.bytes * passes,
  };
}

const like = (a: ValueShape): ValueShape => ({ kind: 'dense', rows: a.rows, cols: a.cols, precision: a.precision });
const dense = (x: unknown, i: number): DenseMatrix => (x as readonly DenseMatrix[])[i]!;

export const relu: OperatorKind = {
  name: 'relu',
  description: 'max(x, 0), element-wise',
  operands: ['dense'],
  params: [],
  output: 'dense',
  builtin: true,
  splittable: false,
  bind: (ctx) => sameShape(ctx, 1, 2),
  shape: (_names, s) => like(s[0]!),
  reference: (_op, x) => reluRows(dense(x, 0)),
  calibration: (quick) => denseCalibration(quick, (r, p, s) => [denseFeatures({ rows: r, cols: 64, precision: p, seed: s })]),
  execution: {
    on: 'host',
    native: (_op, x, range) => nativeRelu(dense(x, 0), range),
    compute: (_op, x, range) => reluRows(dense(x, 0), range),
    onDevice: { gpu: { run: (_op, x, range, keep) => nativeRelu(dense(x, 0), range, 'gpu', keep) } },
  },
};

export const affine: OperatorKind = {
  name: 'affine',
  description: 'scale * x + shift, element-wise',
  operands: ['dense'],
  params: ['scale', 'shift'],
  output: 'dense',
  builtin: true,
  splittable: false,
  bind: (ctx) => ({ ...sameShape(ctx, 2, 2), params: { scale: ctx.num('scale') ?? 1, shift: ctx.num('shift') ?? 0 } }),
  shape: (_names, s) => like(s[0]!),
  reference: (op, x) => affineRows(dense(x, 0), op.scale ?? 1, op.shift ?? 0),
  calibration: (quick) => denseCalibration(quick, (r, p, s) => [denseFeatures({ rows: r, cols: 64, precision: p, seed: s })]),
  execution: {
    on: 'host',
    native: (op, x, range) => nativeAffine(dense(x, 0), op.scale ?? 1, op.shift ?? 0, range),
    compute: (op, x, range) => affineRows(dense(x, 0), op.scale ?? 1, op.shift ?? 0, range),
    onDevice: { gpu: { run: (op, x, range, keep) => nativeAffine(dense(x, 0), op.scale ?? 1, op.shift ?? 0, range, 'gpu', keep) } },
  },
};

export const add: OperatorKind = {
  name: 'add',
  description: 'x + y, element-wise',
  operands: ['dense', 'dense'],
  params: [],
  output: 'dense',
  builtin: true,
  splittable: false,
  bind(ctx) {
    const [x, y] = ctx.operands as [(typeof ctx.operands)[0], (typeof ctx.operands)[0]];
    if (y.rows !== x.rows || y.cols !== x.cols) ctx.fail(`operands differ in shape: ${boundDims(x)}, ${boundDims(y)}`);
    return sameShape(ctx, 1, 3);
  },
  shape(names, s, _params, fail) {
    const [a, b] = s as [ValueShape, ValueShape];
    if (a.rows !== b.rows || a.cols !== b.cols) fail(`operands differ in shape: ${dims(names[0]!, a)}, ${dims(names[1]!, b)}`);
    return like(a);
  },
  reference: (_op, x) => addRows(dense(x, 0), dense(x, 1)),
  calibration: (quick) =>
    denseCalibration(quick, (r, p, s) => [
      denseFeatures({ rows: r, cols: 64, precision: p, seed: s }),
      denseFeatures({ rows: r, cols: 64, precision: p, seed: s + 100 }),
    ]),
  execution: {
    on: 'host',
    native: (_op, x, range) => nativeAdd(dense(x, 0), dense(x, 1), range),
    compute: (_op, x, range) => addRows(dense(x, 0), dense(x, 1), range),
    onDevice: { gpu: { run: (_op, x, range, keep) => nativeAdd(dense(x, 0), dense(x, 1), range, 'gpu', keep) } },
  },
};
