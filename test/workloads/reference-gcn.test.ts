// referenceValues of gcn equals the two layers computed here step by step, in double precision,
// from the same inputs: Â = gcnNormalise(graph), agg2 = Â relu(Â X W1) W2.

import { describe, expect, it } from 'vitest';
import { CsrMatrix } from '../../src/data/csr.js';
import { DenseMatrix } from '../../src/data/dense.js';
import { generate } from '../../src/generators/index.js';
import { bindWorkload } from '../../src/workloads/bind.js';
import { workload } from '../../src/workloads/library.js';
import { referenceValues } from '../../src/workloads/reference.js';
import { gcnNormalise } from '../../src/workloads/transforms.js';

type Rows = number[][];

function rowsOf(m: DenseMatrix): Rows {
  return Array.from({ length: m.rows }, (_, i) => Array.from(m.row(i)));
}

function matmul(x: Rows, w: Rows): Rows {
  return x.map((row) => w[0]!.map((_, j) => row.reduce((s, v, k) => s + v * w[k]![j]!, 0)));
}

/** Sparse-times-dense over the stored entries only (the dense copy of Â is for comparison). */
function spmm(a: CsrMatrix, x: Rows): Rows {
  return Array.from({ length: a.rows }, (_, i) => {
    const out = new Array<number>(x[0]!.length).fill(0);
    for (let p = a.rowStart(i); p < a.rowStart(i + 1); p++) {
      const v = a.values![p]!;
      x[a.colIdx[p]!]!.forEach((xv, j) => {
        out[j]! += v * xv;
      });
    }
    return out;
  });
}

const relu = (x: Rows): Rows => x.map((row) => row.map((v) => Math.max(v, 0)));

describe('referenceValues: gcn', () => {
  const graph = generate({ kind: 'kronecker', scale: 8, edgeFactor: 4, seed: 3 });
  const bound = bindWorkload(workload('gcn'), graph, { params: { features: 16, hidden: 8, classes: 4 }, seed: 9 });
  const values = referenceValues(bound);
  const byName = (name: string): unknown => values[bound.values.findIndex((v) => v.name === name)];

  it('keeps the inputs as bound and derives Â as gcnNormalise does', () => {
    bound.values.forEach((v, i) => {
      if (v.producer < 0) expect(values[i]).toBe(v.data);
    });
    const ahat = byName('A') as CsrMatrix;
    const expected = gcnNormalise(graph, 'f32');
    expect(ahat).toBeInstanceOf(CsrMatrix);
    expect(ahat.rowPtr).toEqual(expected.rowPtr);
    expect(ahat.colIdx).toEqual(expected.colIdx);
    expect(ahat.values).toEqual(expected.values);
    expect(ahat.nnz).toBe(graph.nnz + 256); // a self-loop added to every vertex
  });

  it('computes agg2 = Â relu(Â X W1) W2 within f32 rounding', () => {
    const ahat = gcnNormalise(graph, 'f64');
    const x = rowsOf(byName('X') as DenseMatrix);
    const w1 = rowsOf(byName('W1') as DenseMatrix);
    const w2 = rowsOf(byName('W2') as DenseMatrix);
    const h1 = relu(spmm(ahat, matmul(x, w1)));
    const expected = spmm(ahat, matmul(h1, w2));

    const out = values[bound.outputs[0]!];
    expect(out).toBeInstanceOf(DenseMatrix);
    const got = out as DenseMatrix;
    expect([got.rows, got.cols, got.precision]).toEqual([256, 4, 'f32']);
    const scale = Math.max(...expected.flat().map(Math.abs));
    expect(scale).toBeGreaterThan(0.1);
    expected.forEach((row, i) =>
      row.forEach((e, j) => {
        const v = got.get(i, j);
        if (!(Math.abs(v - e) <= 1e-5 * scale)) expect.fail(`agg2(${i}, ${j}) = ${v}, expected ${e}`);
      }),
    );
  });

  it('applies relu between the layers: h1 is agg1 with its negatives zeroed', () => {
    const agg1 = byName('agg1') as DenseMatrix;
    const h1 = byName('h1') as DenseMatrix;
    expect(Array.from(h1.data)).toEqual(Array.from(agg1.data, (v) => Math.max(v, 0)));
    expect(agg1.data.some((v) => v < 0)).toBe(true);
    expect(h1.data.some((v) => v > 0)).toBe(true);
  });
});
