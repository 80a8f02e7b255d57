// Optional fields may be left out; when present they must have their type. An explicit null is
// a wrong value, not a missing one.

import { describe, expect, it } from 'vitest';
import { defineWorkload } from '../../src/workloads/definition.js';
import { expectDefineError, layerDefinition, thrownBy } from './workload-helpers.js';

/** The layer definition without any $param, so "params" is optional. */
function withoutParams(): Record<string, unknown> {
  const d = layerDefinition();
  delete d['params'];
  d['inputs'].X.cols = 8;
  return d;
}

describe('defineWorkload optional fields', () => {
  it('accepts a definition without description, precision, params or operator params', () => {
    const w = defineWorkload(withoutParams());
    expect(w.definition.params).toBeUndefined();
    expect(w.definition.precision).toBeUndefined();
  });

  it('accepts each optional field with a value of its type', () => {
    const d = layerDefinition();
    d['description'] = 'a layer';
    d['precision'] = 'f64';
    d['inputs'].graph.description = 'adjacency';
    d['inputs'].X.generate = { fill: '1 / graph.rows' };
    expect(defineWorkload(d).definition.precision).toBe('f64');
  });

  it('refuses optional fields of the wrong type', () => {
    const d = layerDefinition();
    d['description'] = 3;
    expectDefineError(
      thrownBy(() => defineWorkload(d, 'o.json')),
      'o.json',
      'description: must be a string, got 3',
    );
    const e = layerDefinition();
    e['inputs'].graph.square = 'yes';
    expectDefineError(
      thrownBy(() => defineWorkload(e, 'o.json')),
      'o.json',
      'inputs.graph.square: must be true or false, got "yes"',
    );
    const f = layerDefinition();
    f['params'] = [8];
    expectDefineError(
      thrownBy(() => defineWorkload(f, 'o.json')),
      'o.json',
      'params: must be an object of numbers',
    );
  });

  it('refuses "params": null at the top level', () => {
    const d = { ...withoutParams(), params: null };
    expectDefineError(
      thrownBy(() => defineWorkload(d, 'o.json')),
      'o.json',
      'params: must be an object',
    );
  });

  it('refuses "params": null on an operator', () => {
    const d = withoutParams();
    (d['operators'] as Array<Record<string, unknown>>)[1]!['params'] = null;
    expectDefineError(
      thrownBy(() => defineWorkload(d, 'o.json')),
      'o.json',
      'operators[1].params: must be an object',
    );
  });
});
