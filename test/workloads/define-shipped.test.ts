// Every workload shipped in workloads/*.json passes defineWorkload, with its operators in a
// dependency order; streamOf marks the stream form without touching the original.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/native/addon.js';
import { defineWorkload, WORKLOAD_OPERATORS, streamOf, type WorkloadDefinition } from '../../src/workloads/definition.js';
import { shippedWorkloads } from '../../src/workloads/library.js';

const names = shippedWorkloads();

function raw(name: string): WorkloadDefinition {
  return JSON.parse(readFileSync(join(packageRoot, 'workloads', `${name}.json`), 'utf8')) as WorkloadDefinition;
}

describe('shipped workload files', () => {
  it('are seven', () => {
    expect(names).toHaveLength(7);
  });

  for (const name of names) {
    it(`${name}.json validates, named as its file, with a topological operator order`, () => {
      const def = raw(name);
      const w = defineWorkload(def, `workloads/${name}.json`);
      expect(w.name).toBe(name);
      expect(w.definition).toBe(def);
      expect(w.stream).toBe(false);
      const ops = def.operators;
      expect([...w.order].sort((a, b) => a - b)).toEqual(ops.map((_, k) => k));
      const position = new Map(w.order.map((k, at) => [ops[k]!.id, at]));
      w.order.forEach((k, at) => {
        const op = ops[k]!;
        expect(WORKLOAD_OPERATORS[op.kind]).toBeDefined();
        for (const operand of op.inputs) {
          const p = position.get(operand);
          if (p !== undefined) expect(p, `${op.id} reads ${operand}`).toBeLessThan(at);
          else expect(Object.keys(def.inputs)).toContain(operand);
        }
      });
      for (const out of def.outputs) expect(position.has(out)).toBe(true);
    });
  }

  it('keeps every parsed expression under the field it came from', () => {
    const w = defineWorkload(raw('gcn'));
    expect([...w.exprs.keys()].sort()).toEqual(['inputs.W1.cols', 'inputs.W1.rows', 'inputs.W2.cols', 'inputs.W2.rows', 'inputs.X.cols', 'inputs.X.rows']);
    expect(w.exprs.get('inputs.X.rows')).toEqual({ t: 'dim', input: 'graph', field: 'rows' });
    expect(w.exprs.get('inputs.W1.cols')).toEqual({ t: 'param', name: 'hidden' });
  });

  it('streamOf gives the stream form and leaves the batch form as it was', () => {
    const w = defineWorkload(raw('sage'));
    const s = streamOf(w);
    expect(s.stream).toBe(true);
    expect(w.stream).toBe(false);
    expect(s.definition).toBe(w.definition);
    expect(s.order).toEqual(w.order);
    expect(s.name).toBe('sage');
  });
});
