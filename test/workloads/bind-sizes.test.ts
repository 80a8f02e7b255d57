// Every bound value carries its entries and bytes, every operator its split axis, the units a
// split divides, which operands each part reads whole, and its flops and bytes moved.

import { describe, expect, it } from 'vitest';
import { gridGraph } from '../../src/generators/grid.js';
import { bindWorkload } from '../../src/workloads/bind.js';
import { defineWorkload } from '../../src/workloads/definition.js';
import { workload } from '../../src/workloads/library.js';
import { csr } from './helpers.js';

// 3 x 4 with 5 stored f64 values: row pointers 4 x 4 bytes, each entry a 4-byte column and an
// 8-byte value.
const a = csr(
  4,
  [
    [
      [0, 1],
      [3, 2],
    ],
    [[1, 3]],
    [
      [2, 4],
      [3, 5],
    ],
  ],
  'f64',
);
const A_BYTES = 4 * 4 + 5 * (4 + 8);

describe('bindWorkload sizes', () => {
  it("spmm: entries and bytes of A, X and Y, and the operator's work", () => {
    const b = bindWorkload(workload('spmm'), a, { params: { k: 2 } });
    expect(
      b.values.map(({ name, kind, rows, cols, entries, bytes, precision, producer }) => ({ name, kind, rows, cols, entries, bytes, precision, producer })),
    ).toEqual([
      { name: 'A', kind: 'sparse', rows: 3, cols: 4, entries: 5, bytes: A_BYTES, precision: 'f64', producer: -1 },
      { name: 'X', kind: 'dense', rows: 4, cols: 2, entries: 8, bytes: 8 * 4, precision: 'f32', producer: -1 },
      { name: 'Y', kind: 'dense', rows: 3, cols: 2, entries: 6, bytes: 6 * 4, precision: 'f32', producer: 0 },
    ]);
    expect(b.values[0]!.pattern).toBe(a);
    expect(b.ops).toHaveLength(1);
    expect(b.ops[0]).toMatchObject({ index: 0, id: 'Y', kind: 'spmm', operands: [0, 1], output: 2, flops: 2 * 5 * 2, bytes: A_BYTES + 32 + 24 });
    expect(b.outputs).toEqual([2]);
  });

  it('f64 binding doubles the bytes of dense values, not of the given sparse matrix', () => {
    const b = bindWorkload(workload('spmm'), a, { params: { k: 2 }, precision: 'f64' });
    expect(b.values.map((v) => v.bytes)).toEqual([A_BYTES, 8 * 8, 6 * 8]);
  });

  it('spmm splits by output rows, reading the dense operand whole', () => {
    const op = bindWorkload(workload('spmm'), a, { params: { k: 2 } }).ops[0]!;
    expect(op).toMatchObject({ split: 'rows', units: 3, whole: [false, true] });
  });

  it('msbfs splits by sources, reading the graph whole; depths are sources x n', () => {
    const g = gridGraph({ rows: 3, cols: 3 });
    const b = bindWorkload(workload('msbfs'), g, { params: { sources: 4 } });
    expect(b.ops[0]).toMatchObject({ split: 'sources', units: 4, whole: [true], flops: 0, bytes: b.values[0]!.bytes });
    expect(b.values[1]).toMatchObject({ name: 'depths', kind: 'depths', rows: 4, cols: 9, entries: 36, bytes: 36 * 4 });
  });

  it('bfs is not split; its depths are one row of n', () => {
    const g = gridGraph({ rows: 3, cols: 3 });
    const b = bindWorkload(workload('bfs'), g);
    expect(b.ops[0]).toMatchObject({ split: 'none', whole: [true] });
    expect(b.values[1]).toMatchObject({ kind: 'depths', rows: 1, cols: 9, entries: 9, bytes: 36 });
  });

  it('an operator with one unit to divide is not split', () => {
    const g = gridGraph({ rows: 3, cols: 3 });
    expect(bindWorkload(workload('msbfs'), g, { params: { sources: 1 } }).ops[0]).toMatchObject({ split: 'none', units: 1 });
    const one = csr(4, [[0, 1, 3]], 'f32'); // a single row
    expect(bindWorkload(workload('spmm'), one).ops[0]).toMatchObject({ split: 'none', units: 1 });
  });

  it('gemm, relu, affine, add and reduce split by rows with their own work', () => {
    const w = defineWorkload({
      name: 'dense-ops',
      inputs: {
        X: { kind: 'dense', rows: 6, cols: 3, generate: 'random' },
        W: { kind: 'dense', rows: 3, cols: 2, generate: 'random' },
      },
      operators: [
        { id: 'xw', kind: 'gemm', inputs: ['X', 'W'] },
        { id: 'r', kind: 'relu', inputs: ['xw'] },
        { id: 'f', kind: 'affine', inputs: ['r'], params: { scale: 2 } },
        { id: 's', kind: 'add', inputs: ['r', 'f'] },
        { id: 'n', kind: 'reduce', inputs: ['s'], params: { op: 'norm2' } },
      ],
      outputs: ['n'],
    });
    const b = bindWorkload(w, {});
    const [gemm, relu, affine, add, reduce] = b.ops;
    expect(gemm).toMatchObject({ split: 'rows', units: 6, whole: [false, true], flops: 2 * 6 * 3 * 2, bytes: (18 + 6 + 12) * 4 });
    expect(relu).toMatchObject({ split: 'rows', units: 6, flops: 12, bytes: 2 * 48 });
    expect(affine).toMatchObject({ split: 'rows', units: 6, flops: 24, scale: 2, shift: 0 });
    expect(add).toMatchObject({ split: 'rows', units: 6, flops: 12, bytes: 3 * 48, whole: [false, false] });
    expect(reduce).toMatchObject({ split: 'rows', units: 6, reduceOp: 'norm2' });
    expect(b.values.at(-1)).toMatchObject({ name: 'n', rows: 1, cols: 2, entries: 2, bytes: 8 });
  });

  it('sddmm gives a sparse value with the pattern and entries of its sparse operand', () => {
    const g = gridGraph({ rows: 2, cols: 3, weights: 'f32' });
    const w = defineWorkload({
      name: 'attention',
      inputs: {
        g: { kind: 'sparse', square: true },
        U: { kind: 'dense', rows: 'g.rows', cols: 4, generate: 'random' },
        V: { kind: 'dense', rows: 'g.cols', cols: 4, generate: 'random' },
      },
      operators: [{ id: 'e', kind: 'sddmm', inputs: ['g', 'U', 'V'] }],
      outputs: ['e'],
    });
    const b = bindWorkload(w, g);
    expect(b.values[3]).toMatchObject({ name: 'e', kind: 'sparse', rows: 6, cols: 6, entries: g.nnz, producer: 0 });
    expect(b.values[3]!.pattern).toBe(g);
    expect(b.ops[0]).toMatchObject({ split: 'rows', units: 6, whole: [false, false, true], flops: 2 * g.nnz * 4 });
  });
});
