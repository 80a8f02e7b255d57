// A graph input must have a vertex, and be square where the workload says so or the operator
// needs it; each refusal is an InvalidArgumentError naming the input or operator.

import { describe, expect, it } from 'vitest';
import { CsrMatrix } from '../../src/data/csr.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { bindWorkload } from '../../src/workloads/bind.js';
import { defineWorkload } from '../../src/workloads/definition.js';
import { shippedWorkloads, workload } from '../../src/workloads/library.js';
import { csr } from './helpers.js';
import { thrownBy } from './workload-helpers.js';

const empty = new CsrMatrix({ rows: 0, cols: 0, rowPtr: Int32Array.of(0), colIdx: new Int32Array(0) });
const wide = csr(4, [[0, 3], [1], [2, 3]]); // 3 x 4

describe('bindWorkload graph checks', () => {
  for (const name of shippedWorkloads()) {
    it(`${name}: refuses a 0 x 0 graph, naming the input`, () => {
      const input = name === 'spmm' ? 'A' : 'graph';
      const e = thrownBy(() => bindWorkload(workload(name), empty));
      expect(e).toBeInstanceOf(InvalidArgumentError);
      expect(e.message).toBe(`bindWorkload: input ${input} is empty (0 x 0); ${name} needs at least one vertex or row`);
    });
  }

  it('refuses a matrix with rows but no columns', () => {
    const noCols = new CsrMatrix({ rows: 3, cols: 0, rowPtr: Int32Array.of(0, 0, 0, 0), colIdx: new Int32Array(0) });
    expect(thrownBy(() => bindWorkload(workload('spmm'), noCols)).message).toBe(
      'bindWorkload: input A is empty (3 x 0); spmm needs at least one vertex or row',
    );
  });

  it('refuses a non-square graph for an input declared square (bfs)', () => {
    const e = thrownBy(() => bindWorkload(workload('bfs'), wide));
    expect(e).toBeInstanceOf(InvalidArgumentError);
    expect(e.message).toBe('bindWorkload: input graph must be square (a graph), got 3 x 4');
  });

  it('refuses a non-square operand of a bfs operator even when the input is not declared square', () => {
    const w = defineWorkload({ name: 'loose', inputs: { A: { kind: 'sparse' } }, operators: [{ id: 'd', kind: 'bfs', inputs: ['A'] }], outputs: ['d'] });
    const e = thrownBy(() => bindWorkload(w, wide));
    expect(e).toBeInstanceOf(InvalidArgumentError);
    expect(e.message).toBe('bindWorkload: loose: operator d (bfs): bfs needs a square graph, A is 3 x 4');
  });

  it('accepts a non-square matrix where no square is needed (spmm)', () => {
    const b = bindWorkload(workload('spmm'), wide, { params: { k: 2 } });
    expect(b.values.map((v) => `${v.name}:${v.rows}x${v.cols}`)).toEqual(['A:3x4', 'X:4x2', 'Y:3x2']);
  });
});
