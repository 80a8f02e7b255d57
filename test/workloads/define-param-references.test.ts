// A $name in an expression must be one of the workload's own "params": names an empty object
// inherits (toString, constructor, __proto__) are not params.

import { describe, expect, it } from 'vitest';
import { defineWorkload } from '../../src/workloads/definition.js';
import { expectDefineError, layerDefinition, thrownBy } from './workload-helpers.js';

describe('defineWorkload $param references', () => {
  it('accepts a $param declared in "params", in any expression field', () => {
    const d = layerDefinition();
    d['params'] = { hidden: 8, scale: 2 };
    d['operators'].push({ id: 'z', kind: 'affine', inputs: ['h'], params: { scale: '$scale', shift: '-$hidden / 2' } });
    expect(() => defineWorkload(d)).not.toThrow();
  });

  it('refuses a $param when the workload has no "params" at all, listing no suggestion', () => {
    const d = layerDefinition();
    delete d['params'];
    const e = thrownBy(() => defineWorkload(d, 'x.json'));
    expectDefineError(e, 'x.json', 'inputs.X.cols: refers to $hidden, which is not in "params"');
    expect(e.message).not.toContain('did you mean');
  });

  for (const name of ['toString', 'constructor', '__proto__']) {
    it(`refuses $${name}, which only the object prototype has`, () => {
      const d = layerDefinition();
      d['inputs'].X.cols = `$${name}`;
      expectDefineError(
        thrownBy(() => defineWorkload(d, 'x.json')),
        'x.json',
        `$${name}`,
      );
    });
  }

  // Gap against the documented contract ("@throws {FormatError} naming the field that is
  // wrong"): unknown $params and inputs are reported under the pseudo-field "expressions",
  // not under the field that holds the expression.
  it('names the field whose expression refers to an unknown $param', () => {
    const d = layerDefinition();
    d['inputs'].X.cols = '$hiden';
    expectDefineError(
      thrownBy(() => defineWorkload(d, 'x.json')),
      'x.json',
      'inputs.X.cols',
    );
  });
});
