// Every operator kind in WORKLOAD_OPERATORS validates with operands of the kinds the table lists,
// and is refused with one operand fewer: the table and the validation agree.

import { describe, expect, it } from 'vitest';
import { defineWorkload, WORKLOAD_OPERATORS, type WorkloadOpKind } from '../../src/workloads/definition.js';
import { expectDefineError, thrownBy } from './workload-helpers.js';

function oneOperator(kind: WorkloadOpKind, operands: readonly string[]): unknown {
  return {
    name: `one-${kind}`,
    inputs: {
      S: { kind: 'sparse', square: true },
      D: { kind: 'dense', rows: 'S.cols', cols: 4, generate: 'random' },
    },
    operators: [{ id: 'out', kind, inputs: operands }],
    outputs: ['out'],
  };
}

describe('WORKLOAD_OPERATORS', () => {
  const kinds = Object.keys(WORKLOAD_OPERATORS) as WorkloadOpKind[];

  it('lists the eleven built-in operator kinds, each described', () => {
    expect([...kinds].sort()).toEqual(['add', 'affine', 'bfs', 'edge-softmax', 'gemm', 'msbfs', 'reduce', 'relu', 'sddmm', 'spmm', 'spmv']);
    for (const k of kinds) expect(WORKLOAD_OPERATORS[k].description.length).toBeGreaterThan(0);
  });

  for (const kind of kinds) {
    it(`${kind}: validates with its listed operands, refuses one fewer`, () => {
      const operands = WORKLOAD_OPERATORS[kind].operands.map((o) => (o === 'sparse' ? 'S' : 'D'));
      expect(defineWorkload(oneOperator(kind, operands)).order).toEqual([0]);
      const e = thrownBy(() => defineWorkload(oneOperator(kind, operands.slice(1)), 'one.json'));
      expectDefineError(e, 'one.json', 'operators[0].inputs', `${kind} takes ${operands.length} operand name(s)`);
    });
  }
});
