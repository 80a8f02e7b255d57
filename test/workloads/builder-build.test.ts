// WorkloadBuilder produces the plain definition a file would hold; build() validates it the
// way defineWorkload validates a file, and the result binds to data like a shipped workload.

import { describe, expect, it } from 'vitest';
import { DenseMatrix } from '../../src/data/dense.js';
import { gridGraph } from '../../src/generators/grid.js';
import { bindWorkload } from '../../src/workloads/bind.js';
import { WorkloadBuilder } from '../../src/workloads/builder.js';
import { expectDefineError, thrownBy } from './workload-helpers.js';

function layer(): WorkloadBuilder {
  return new WorkloadBuilder('layer')
    .describe('one mean-aggregation layer')
    .withPrecision('f64')
    .param('hidden', 4)
    .sparse('graph', { square: true })
    .derived('M', 'graph', 'mean-aggregator')
    .dense('X', { rows: 'graph.rows', cols: 3 })
    .dense('W', { rows: 3, cols: '$hidden' })
    .op('xw', 'gemm', ['X', 'W'])
    .op('agg', 'spmm', ['M', 'xw'])
    .op('h', 'affine', ['agg'], { scale: 2, shift: '-1 / graph.rows' })
    .output('h');
}

describe('WorkloadBuilder', () => {
  it('writes the plain definition, dense inputs generated at random unless told otherwise', () => {
    expect(layer().definition()).toStrictEqual({
      name: 'layer',
      description: 'one mean-aggregation layer',
      precision: 'f64',
      params: { hidden: 4 },
      inputs: {
        graph: { kind: 'sparse', square: true },
        M: { kind: 'sparse', from: 'graph', transform: 'mean-aggregator' },
        X: { kind: 'dense', generate: 'random', rows: 'graph.rows', cols: 3 },
        W: { kind: 'dense', generate: 'random', rows: 3, cols: '$hidden' },
      },
      operators: [
        { id: 'xw', kind: 'gemm', inputs: ['X', 'W'] },
        { id: 'agg', kind: 'spmm', inputs: ['M', 'xw'] },
        { id: 'h', kind: 'affine', inputs: ['agg'], params: { scale: 2, shift: '-1 / graph.rows' } },
      ],
      outputs: ['h'],
    });
  });

  it('builds a workload that validates and binds to a graph', () => {
    const w = layer().build();
    expect(w.name).toBe('layer');
    expect(w.order).toEqual([0, 1, 2]);
    const g = gridGraph({ rows: 3, cols: 4 });
    const b = bindWorkload(w, g);
    expect(b.precision).toBe('f64');
    expect(b.values.map((v) => `${v.name}:${v.rows}x${v.cols}`)).toEqual(['graph:12x12', 'M:12x12', 'X:12x3', 'W:3x4', 'xw:12x4', 'agg:12x4', 'h:12x4']);
    expect(b.ops[2]).toMatchObject({ id: 'h', scale: 2, shift: -1 / 12 });
    expect(b.values[2]!.data).toBeInstanceOf(DenseMatrix);
    expect(b.values[2]!.precision).toBe('f64');
  });

  it('build() of an invalid workload throws the FormatError defineWorkload gives, labelled by the builder', () => {
    const unknownOperand = layer().op('bad', 'relu', ['hh']).output('bad');
    expectDefineError(
      thrownBy(() => unknownOperand.build()),
      '<builder layer>',
      'operators[3].inputs[0]: "hh" is neither an input nor an operator (did you mean "h"?)',
    );
    const noOutput = new WorkloadBuilder('empty').sparse('g').op('d', 'bfs', ['g']);
    expectDefineError(
      thrownBy(() => noOutput.build()),
      '<builder empty>',
      'outputs: must be a non-empty array',
    );
    const badName = new WorkloadBuilder('has space').sparse('g').op('d', 'bfs', ['g']).output('d');
    expectDefineError(
      thrownBy(() => badName.build()),
      '<builder has space>',
      'name: must be a word',
    );
  });

  it('returns copies from definition(), so later builder calls do not change an earlier definition', () => {
    const b = layer();
    const before = b.definition();
    b.param('extra', 1).op('r', 'relu', ['h']).output('r');
    expect(before.operators).toHaveLength(3);
    expect(before.outputs).toEqual(['h']);
    expect(before.params).toEqual({ hidden: 4 });
  });
});
