// The operator registry holds every built-in kind, each with the whole record the binder,
// reference, piece runner, planner and session read: nothing about a built-in lives elsewhere.

import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors.js';
import { operatorKind, operatorKinds } from '../../src/operators/registry.js';
import { WORKLOAD_OPERATORS } from '../../src/workloads/definition.js';

const BUILTINS = ['spmm', 'spmv', 'sddmm', 'gemm', 'relu', 'affine', 'add', 'reduce', 'bfs', 'msbfs'];

describe('operator registry', () => {
  it('has a complete record for every built-in kind', () => {
    const names = operatorKinds()
      .filter((k) => k.builtin)
      .map((k) => k.name);
    expect(names).toEqual(expect.arrayContaining(BUILTINS));
    for (const k of operatorKinds().filter((x) => x.builtin)) {
      expect(k.description.length, k.name).toBeGreaterThan(0);
      expect(k.operands.length, k.name).toBeGreaterThan(0);
      expect(typeof k.bind, k.name).toBe('function');
      expect(typeof k.shape, k.name).toBe('function');
      expect(typeof k.reference, k.name).toBe('function');
      if (k.execution.on === 'device') expect(typeof k.execution.costShape, k.name).toBe('function');
      else expect(typeof k.execution.compute, k.name).toBe('function');
    }
  });

  it('is what WORKLOAD_OPERATORS lists', () => {
    for (const name of BUILTINS) {
      const k = operatorKind(name);
      expect(WORKLOAD_OPERATORS[name]).toEqual({ operands: k.operands, params: k.params, description: k.description });
    }
  });

  it('refuses an unknown kind with a typed error naming the closest one', () => {
    expect(() => operatorKind('spmmm')).toThrow(InvalidArgumentError);
    expect(() => operatorKind('spmmm')).toThrow(/operatorKind: "spmmm" is not an operator \(did you mean "spmm"\?\)/);
  });
});
