// Every refusal of the dense kernels is an InvalidArgumentError whose message starts with the
// function's name and names the offending value.

import { describe, expect, it } from 'vitest';
import { DenseMatrix } from '../../src/data/dense.js';
import { InvalidArgumentError } from '../../src/errors.js';
import {
  add,
  affine,
  combineReduce,
  concatCsrRows,
  concatRows,
  finishReduce,
  gemm,
  reduce,
  reducePartial,
  relu,
  sddmm,
} from '../../src/workloads/dense-kernels.js';
import { randomDense } from '../support/random.js';
import { csr, thrown } from './helpers.js';

function expectRefusal(f: () => unknown, fn: string, detail: RegExp): void {
  const e = thrown(f);
  expect(e).toBeInstanceOf(InvalidArgumentError);
  expect(e.message.startsWith(`${fn}: `)).toBe(true);
  expect(e.message).toMatch(detail);
}

const x32 = randomDense(4, 3, 'f32', 1);
const x64 = randomDense(4, 3, 'f64', 2);
const w32 = randomDense(3, 2, 'f32', 3);
const BAD_RANGES: Array<[unknown, RegExp]> = [
  [[0, 5], /\[0, 5\) is not a range within \[0, 4\]/],
  [[3, 2], /\[3, 2\) is not a range within/],
  [[-1, 2], /\[-1, 2\) is not a range within/],
  [[0.5, 2], /two integers, got \[0\.5, 2\]/],
  [[0], /\[begin, end\) pair, got Array\(1\)/],
  ['all', /\[begin, end\) pair, got "all"/],
];

describe('dense kernel errors', () => {
  it('gemm refuses mismatched shapes, naming both', () => {
    expectRefusal(() => gemm(x32, randomDense(4, 2, 'f32', 1)), 'gemm', /x is 4x3 and w is 4x2; x.cols must equal w.rows/);
  });

  it('every kernel refuses mixed precisions', () => {
    expectRefusal(() => gemm(x32, randomDense(3, 2, 'f64', 1)), 'gemm', /x is f32 but w is f64/);
    expectRefusal(() => add(x32, x64), 'add', /x is f32 but y is f64/);
    const a = csr(4, [[0], [1], [2], [3]]);
    expectRefusal(() => sddmm(a, x32, x64), 'sddmm', /u is f32 but v is f64/);
    expectRefusal(() => sddmm(csr(4, [[0], [1], [2], [3]], 'f64'), x32, randomDense(4, 3, 'f32', 5)), 'sddmm', /a's values are f64 but u and v are f32/);
  });

  it('every row-wise kernel refuses a bad range, naming it', () => {
    const calls: Array<[string, (r: unknown) => unknown]> = [
      ['gemm', (r) => gemm(x32, w32, r as never)],
      ['relu', (r) => relu(x32, r as never)],
      ['affine', (r) => affine(x32, 1, 0, r as never)],
      ['add', (r) => add(x32, x32, r as never)],
      ['sddmm', (r) => sddmm(csr(4, [[0], [1], [2], [3]]), x32, x32, r as never)],
      ['reduce', (r) => reduce(x32, 'sum', r as never)],
      ['reducePartial', (r) => reducePartial(x32, 'sum', r as never)],
    ];
    for (const [fn, call] of calls) for (const [range, detail] of BAD_RANGES) expectRefusal(() => call(range), fn, detail);
  });

  it('refuses arguments of the wrong type', () => {
    expectRefusal(() => gemm([1, 2] as never, w32), 'gemm', /x must be a DenseMatrix, got Array\(2\)/);
    expectRefusal(() => gemm(x32, new Float32Array(6) as never), 'gemm', /w must be a DenseMatrix, got Float32Array\(6\)/);
    expectRefusal(() => relu(null as never), 'relu', /x must be a DenseMatrix, got null/);
    expectRefusal(() => sddmm(x32 as never, x32, x32), 'sddmm', /a must be a CsrMatrix, got DenseMatrix object/);
    expectRefusal(() => affine(x32, Number.NaN, 0), 'affine', /scale must be a finite number, got NaN/);
    expectRefusal(() => affine(x32, 1, Infinity), 'affine', /shift must be a finite number, got Infinity/);
  });

  it('add refuses different shapes, naming both', () => {
    expectRefusal(() => add(x32, randomDense(4, 2, 'f32', 4)), 'add', /x is 4x3 but y is 4x2/);
  });

  it('sddmm refuses inconsistent shapes, naming all three', () => {
    const a = csr(5, [[0], [1], [2], [3]]); // 4x5
    const v = randomDense(5, 3, 'f32', 6);
    expectRefusal(() => sddmm(a, randomDense(3, 3, 'f32', 1), v), 'sddmm', /a is 4x5, u is 3x3 and v is 5x3/);
    expectRefusal(() => sddmm(a, x32, randomDense(4, 3, 'f32', 1)), 'sddmm', /v is 4x3; .*v a.cols rows/);
    expectRefusal(() => sddmm(a, x32, randomDense(5, 2, 'f32', 1)), 'sddmm', /u is 4x3 and v is 5x2; .*same width/);
  });

  it('sddmm refuses a value that overflows f32 instead of storing Infinity in a CsrMatrix', () => {
    const big = new DenseMatrix(1, 1, Float32Array.of(3e38));
    expectRefusal(() => sddmm(csr(1, [[0]]), big, big), 'sddmm', /entry \(0, 0\) = Infinity is not finite in f32/);
  });

  it('reduce refuses an unknown op and max over no rows', () => {
    expectRefusal(() => reduce(x32, 'mean' as never), 'reduce', /op must be one of "sum", "max", "norm2", got "mean"/);
    expectRefusal(() => reduce(x32, 'max', [2, 2]), 'reduce', /'max' over the empty row range \[2, 2\) has no value/);
  });

  it('combineReduce and finishReduce refuse anything but f64 accumulators of one shape', () => {
    const p = reducePartial(x32, 'sum');
    expectRefusal(() => combineReduce('sum', []), 'combineReduce', /parts must be a non-empty array/);
    expectRefusal(() => combineReduce('sum', [p, reduce(x32, 'sum')]), 'combineReduce', /parts\[1\] is a 1x3 f32 matrix; accumulators/);
    expectRefusal(
      () => combineReduce('sum', [p, reducePartial(randomDense(2, 2, 'f64', 1), 'sum')]),
      'combineReduce',
      /parts\[1\] is 1x2 but parts\[0\] is 1x3/,
    );
    expectRefusal(() => combineReduce('min' as never, [p]), 'combineReduce', /op must be one of/);
    expectRefusal(() => finishReduce('sum', x64, 'f64'), 'finishReduce', /acc is a 4x3 f64 matrix/);
    expectRefusal(() => finishReduce('sum', p, 'f16' as never), 'finishReduce', /precision must be one of "f32", "f64", got "f16"/);
  });

  it('concatRows refuses parts that do not fit their ranges or each other', () => {
    expectRefusal(() => concatRows([], 0), 'concatRows', /parts must be a non-empty array/);
    expectRefusal(() => concatRows([{ range: [0, 3], matrix: x32 }], 4), 'concatRows', /parts\[0\]\.matrix has 4 rows but its range \[0, 3\) has 3/);
    expectRefusal(() => concatRows([{ range: [0, 4], matrix: x32 }], 3), 'concatRows', /parts\[0\]\.range: rows \[0, 4\) is not a range within \[0, 3\]/);
    expectRefusal(
      () =>
        concatRows(
          [
            { range: [0, 4], matrix: x32 },
            { range: [4, 8], matrix: x64 },
          ],
          8,
        ),
      'concatRows',
      /parts\[1\]\.matrix is 4x3 f64 but parts\[0\]\.matrix has 3 f32 columns/,
    );
    expectRefusal(
      () =>
        concatRows(
          [
            { range: [0, 4], matrix: x32 },
            { range: [4, 8], matrix: randomDense(4, 2, 'f32', 1) },
          ],
          8,
        ),
      'concatRows',
      /parts\[1\]\.matrix is 4x2 f32/,
    );
    expectRefusal(
      () => concatRows([{ range: [0, 4], matrix: csr(3, [[0], [1], [2], [0]]) as never }], 4),
      'concatRows',
      /parts\[0\]\.matrix must be a DenseMatrix, got CsrMatrix object/,
    );
    expectRefusal(() => concatRows([{ range: [0, 4], matrix: x32 }], 4.5), 'concatRows', /rows must be an integer, got 4.5/);
    expectRefusal(
      () => concatCsrRows([{ range: [0, 4], matrix: x32 as never }], 4),
      'concatCsrRows',
      /parts\[0\]\.matrix must be a CsrMatrix, got DenseMatrix object/,
    );
  });
});
