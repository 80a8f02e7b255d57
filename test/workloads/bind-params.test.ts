// Binding options: params override the workload's (and change the shapes that use them);
// unknown params and options are refused with the closest name.

import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors.js';
import { gridGraph } from '../../src/generators/grid.js';
import { bindWorkload, type BindOptions } from '../../src/workloads/bind.js';
import { workload } from '../../src/workloads/library.js';
import { thrownBy } from './workload-helpers.js';

const graph = gridGraph({ rows: 5, cols: 6 }); // 30 vertices

function shapes(options?: BindOptions): Record<string, string> {
  const b = bindWorkload(workload('gcn'), graph, options);
  return Object.fromEntries(b.values.map((v) => [v.name, `${v.rows}x${v.cols}`]));
}

function bindError(options: unknown, name = 'gcn'): string {
  const e = thrownBy(() => bindWorkload(workload(name), graph, options as BindOptions));
  expect(e).toBeInstanceOf(InvalidArgumentError);
  return e.message;
}

describe('bindWorkload params and options', () => {
  it('uses the workload params by default', () => {
    expect(shapes()).toEqual({
      graph: '30x30',
      A: '30x30',
      X: '30x64',
      W1: '64x16',
      W2: '16x8',
      xw1: '30x16',
      agg1: '30x16',
      h1: '30x16',
      xw2: '30x8',
      agg2: '30x8',
    });
    expect(bindWorkload(workload('gcn'), graph).params).toEqual({ features: 64, hidden: 16, classes: 8 });
  });

  it('overrides params, changing every shape that refers to them and nothing else', () => {
    const s = shapes({ params: { hidden: 4, classes: 3 } });
    expect(s).toMatchObject({ X: '30x64', W1: '64x4', W2: '4x3', xw1: '30x4', h1: '30x4', xw2: '30x3', agg2: '30x3' });
    const b = bindWorkload(workload('gcn'), graph, { params: { hidden: 4 } });
    expect(b.params).toEqual({ features: 64, hidden: 4, classes: 8 });
    expect(workload('gcn').definition.params).toEqual({ features: 64, hidden: 16, classes: 8 });
  });

  it('refuses an unknown param with the param it resembles, or the list', () => {
    expect(bindError({ params: { hiden: 4 } })).toBe('bindWorkload: workload gcn has no param "hiden" (did you mean "hidden"?)');
    expect(bindError({ params: { depth: 4 } })).toBe('bindWorkload: workload gcn has no param "depth" (params: features, hidden, classes)');
    expect(bindError({ params: { k: 4 } }, 'bfs')).toBe('bindWorkload: workload bfs has no param "k" (params: none)');
  });

  it('refuses a param named after an Object.prototype member', () => {
    bindError({ params: { toString: 3 } });
  });

  it('refuses a param value that is not finite, or that makes a shape not a positive integer', () => {
    expect(bindError({ params: { hidden: Number.NaN } })).toBe('bindWorkload: param hidden must be a finite number, got NaN');
    expect(bindError({ params: { hidden: '4' } })).toBe('bindWorkload: param hidden must be a finite number, got "4"');
    expect(bindError({ params: { hidden: 2.5 } })).toBe('bindWorkload: input W1 needs a positive integer number of cols, got 2.5');
    expect(bindError({ params: { features: 0 } })).toBe('bindWorkload: input X needs a positive integer number of cols, got 0');
  });

  it('refuses an unknown option with the option it resembles', () => {
    expect(bindError({ sed: 3 })).toBe('bindWorkload: unknown option "sed" (did you mean "seed"?)');
    expect(bindError({ param: { hidden: 4 } })).toBe('bindWorkload: unknown option "param" (did you mean "params"?)');
    expect(bindError({ precission: 'f64' })).toContain('(did you mean "precision"?)');
  });

  it('refuses a precision other than f32 or f64', () => {
    expect(bindError({ precision: 'f16' })).toBe('bindWorkload: precision must be "f32" or "f64", got "f16"');
  });
});
