// Operators may be written in any order: defineWorkload orders them by their operands, keeping
// the written order between independent operators.

import { describe, expect, it } from 'vitest';
import { defineWorkload } from '../../src/workloads/definition.js';
import { layerDefinition } from './workload-helpers.js';

describe('defineWorkload operator order', () => {
  it('puts every operator after the operators it reads, whatever order they are written in', () => {
    const d = layerDefinition();
    d['operators'] = [
      { id: 'out', kind: 'add', inputs: ['h', 'z'] },
      { id: 'h', kind: 'relu', inputs: ['y'] },
      { id: 'z', kind: 'affine', inputs: ['y'], params: { scale: 2, shift: '-$hidden' } },
      { id: 'y', kind: 'spmm', inputs: ['A', 'X'] },
    ];
    d['outputs'] = ['out'];
    const w = defineWorkload(d);
    // y first; h and z independent, so in written order; out last.
    expect(w.order).toEqual([3, 1, 2, 0]);
  });

  it('counts an operand used twice as one dependency', () => {
    const d = layerDefinition();
    d['operators'] = [
      { id: 'sq', kind: 'add', inputs: ['y', 'y'] },
      { id: 'y', kind: 'spmm', inputs: ['A', 'X'] },
    ];
    d['outputs'] = ['sq'];
    expect(defineWorkload(d).order).toEqual([1, 0]);
  });

  it('keeps the written order of operators that only read inputs', () => {
    const d = layerDefinition();
    d['operators'] = [
      { id: 'c', kind: 'relu', inputs: ['X'] },
      { id: 'a', kind: 'spmm', inputs: ['A', 'X'] },
      { id: 'b', kind: 'reduce', inputs: ['X'], params: { op: 'max' } },
    ];
    d['outputs'] = ['a', 'b', 'c'];
    expect(defineWorkload(d).order).toEqual([0, 1, 2]);
  });
});
