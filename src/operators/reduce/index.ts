// Column-wise reduction (sum, max, 2-norm) of a dense matrix to one row: pieces return partial
// accumulators that join exactly; never split (a split cannot pay for itself).

import type { DenseMatrix } from '../../data/dense.js';
import { nativeReducePartial } from '../../kernels/dense.js';
import { combineReduce, finishReduce, reduce as reduceAll, reducePartial, type ReduceOp } from '../../workloads/dense/reduce.js';
import type { OperatorKind } from '../kind.js';
import { denseCalibration, elementBytes } from '../shared.js';
import { denseFeatures } from '../../generators/dense.js';

const REDUCE_OPS = ['sum', 'max', 'norm2'] as const;

export const reduce: OperatorKind = {
  name: 'reduce',
  description: 'column-wise sum, max or 2-norm',
  operands: ['dense'],
  params: ['op'],
  output: 'dense',
  builtin: true,
  splittable: false,
  literalParam: (name, value) => (name !== 'op' ? undefined : (REDUCE_OPS as readonly unknown[]).includes(value) ? null : `must be "sum", "max" or "norm2"`),
  bind(ctx) {
    const x = ctx.operands[0]!;
    return {
      output: { kind: 'dense', rows: 1, cols: x.cols, entries: x.cols, bytes: x.cols * elementBytes(x.precision), precision: x.precision },
      units: x.rows,
      split: 'rows',
      whole: [false],
      flops: x.entries * 2,
      bytes: x.bytes,
      params: { reduceOp: (ctx.params['op'] as ReduceOp | undefined) ?? 'sum' },
    };
  },
  shape: (_names, s) => ({ kind: 'dense', rows: 1, cols: s[0]!.cols, precision: s[0]!.precision }),
  reference: (op, x) => reduceAll(x[0] as DenseMatrix, op.reduceOp ?? 'sum'),
  calibration: (quick) => denseCalibration(quick, (r, p, s) => [denseFeatures({ rows: r, cols: 64, precision: p, seed: s })]),
  execution: {
    on: 'host',
    native: (op, x, range) => nativeReducePartial(x[0] as DenseMatrix, op.reduceOp ?? 'sum', range),
    compute: (op, x, range) => reducePartial(x[0] as DenseMatrix, op.reduceOp ?? 'sum', range),
    onDevice: { gpu: { run: (op, x, range) => nativeReducePartial(x[0] as DenseMatrix, op.reduceOp ?? 'sum', range, 'gpu') } },
  },
  join(op, outputs, precision) {
    const acc = outputs.length === 1 ? (outputs[0] as DenseMatrix) : combineReduce(op.reduceOp ?? 'sum', outputs as DenseMatrix[]);
    return finishReduce(op.reduceOp ?? 'sum', acc, precision);
  },
};
