// bindWorkload matches data to inputs: a CsrMatrix alone goes to the one sparse input the data
// gives, named data by name; misnamed, missing, derived or wrongly shaped data is refused with
// an InvalidArgumentError naming the input.

import { describe, expect, it } from 'vitest';
import { CsrMatrix } from '../../src/data/csr.js';
import { DenseMatrix } from '../../src/data/dense.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { denseFeatures } from '../../src/generators/dense.js';
import { gridGraph } from '../../src/generators/grid.js';
import { bindWorkload, type WorkloadData } from '../../src/workloads/bind.js';
import { defineWorkload } from '../../src/workloads/definition.js';
import { workload } from '../../src/workloads/library.js';
import { thrownBy } from './workload-helpers.js';

const graph = gridGraph({ rows: 4, cols: 5 }); // 20 vertices

function bindError(...args: Parameters<typeof bindWorkload>): string {
  const e = thrownBy(() => bindWorkload(...args));
  expect(e).toBeInstanceOf(InvalidArgumentError);
  expect(e.message.startsWith('bindWorkload: ')).toBe(true);
  return e.message;
}

describe('bindWorkload data', () => {
  it('binds a CsrMatrix alone to the single sparse input the data gives (not the derived one)', () => {
    const b = bindWorkload(workload('gcn'), graph);
    expect(b.values[0]).toMatchObject({ name: 'graph', kind: 'sparse', producer: -1 });
    expect(b.values[0]!.data).toBe(graph);
    expect(b.values[1]!.name).toBe('A');
    expect(b.values[1]!.data).toBeInstanceOf(CsrMatrix);
    expect(b.values[1]!.data).not.toBe(graph);
    expect(bindWorkload(workload('spmm'), graph).values[0]).toMatchObject({ name: 'A', rows: 20, cols: 20 });
  });

  it('binds named data, using a given dense input instead of generating it', () => {
    const x = denseFeatures({ rows: 20, cols: 64, seed: 11 });
    const b = bindWorkload(workload('gcn'), { graph, X: x });
    const xv = b.values.find((v) => v.name === 'X')!;
    expect(xv.data).toBe(x);
    expect(b.values.find((v) => v.name === 'graph')!.data).toBe(graph);
  });

  it('refuses a lone CsrMatrix when the workload takes two sparse inputs', () => {
    const two = defineWorkload({
      name: 'two',
      inputs: { A: { kind: 'sparse' }, B: { kind: 'sparse' }, X: { kind: 'dense', rows: 'B.cols', cols: 2, generate: 'random' } },
      operators: [
        { id: 'bx', kind: 'spmm', inputs: ['B', 'X'] },
        { id: 'abx', kind: 'spmm', inputs: ['A', 'bx'] },
      ],
      outputs: ['abx'],
    });
    expect(bindError(two, graph)).toBe('bindWorkload: workload two takes sparse inputs A, B; pass them by name, not one CsrMatrix');
    expect(bindWorkload(two, { A: graph, B: graph }).values.map((v) => v.name)).toEqual(['A', 'B', 'X', 'bx', 'abx']);
  });

  it('refuses an unknown data name with the input it resembles', () => {
    expect(bindError(workload('gcn'), { grap: graph })).toBe('bindWorkload: workload gcn has no input "grap" (did you mean "graph"?)');
    expect(bindError(workload('gcn'), { graph, features: graph })).toBe('bindWorkload: workload gcn has no input "features" (inputs: graph, A, X, W1, W2)');
  });

  it('refuses data named after an Object.prototype member', () => {
    bindError(workload('gcn'), { graph, toString: graph } as unknown as WorkloadData);
  });

  it('refuses data for an input that is derived by a transform', () => {
    expect(bindError(workload('gcn'), { graph, A: graph })).toBe('bindWorkload: input A is derived from graph (gcn-normalise); do not pass it');
  });

  it('refuses named data without the sparse input, or with a dense matrix in its place', () => {
    expect(bindError(workload('gcn'), {})).toBe('bindWorkload: workload gcn needs a CsrMatrix for input graph, got undefined');
    expect(bindError(workload('gcn'), { graph: DenseMatrix.zeros(20, 20) })).toContain('needs a CsrMatrix for input graph, got DenseMatrix object');
  });

  it('refuses a sparse matrix where a dense input goes', () => {
    expect(bindError(workload('gcn'), { graph, X: graph })).toBe('bindWorkload: input X must be a DenseMatrix, got CsrMatrix object');
  });

  it('refuses data that is neither a CsrMatrix nor an object of inputs', () => {
    for (const bad of [null, 3, [graph], DenseMatrix.zeros(2, 2)]) {
      expect(bindError(workload('spmm'), bad as unknown as WorkloadData)).toContain('data must be a CsrMatrix or an object of named inputs');
    }
  });

  it('refuses a missing dense input that has no generate, giving its shape', () => {
    const w = defineWorkload({
      name: 'needs-w',
      params: { k: 2 },
      inputs: { A: { kind: 'sparse' }, W: { kind: 'dense', rows: 'A.cols', cols: '$k' } },
      operators: [{ id: 'y', kind: 'spmm', inputs: ['A', 'W'] }],
      outputs: ['y'],
    });
    expect(bindError(w, graph)).toBe('bindWorkload: workload needs-w needs input W (20 x 2 dense)');
    expect(bindWorkload(w, { A: graph, W: DenseMatrix.zeros(20, 2) }).values[1]!.rows).toBe(20);
  });

  it('refuses a given dense input of the wrong shape, giving both shapes', () => {
    const x = denseFeatures({ rows: 20, cols: 32 });
    expect(bindError(workload('gcn'), { graph, X: x })).toBe('bindWorkload: input X must be 20 x 64, got 20 x 32');
    const xt = denseFeatures({ rows: 64, cols: 20 });
    expect(bindError(workload('gcn'), { graph, X: xt })).toBe('bindWorkload: input X must be 20 x 64, got 64 x 20');
  });

  it('refuses operands whose shapes do not fit the operator, naming the operator', () => {
    const w = defineWorkload({
      name: 'misfit',
      inputs: { A: { kind: 'sparse' }, X: { kind: 'dense', rows: 'A.cols + 1', cols: 2, generate: 'random' } },
      operators: [{ id: 'y', kind: 'spmm', inputs: ['A', 'X'] }],
      outputs: ['y'],
    });
    expect(bindError(w, graph)).toBe('bindWorkload: misfit: operator y (spmm): A is 20 x 20 but X is 21 x 2: inner dimensions differ');
  });
});
