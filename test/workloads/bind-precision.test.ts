// Precision of a binding: derived and generated data take the binding's precision; a given
// dense input of the other precision is a mismatch the binding should catch, not the executor.

import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors.js';
import { denseFeatures } from '../../src/generators/dense.js';
import { gridGraph } from '../../src/generators/grid.js';
import { bindWorkload } from '../../src/workloads/bind.js';
import { workload } from '../../src/workloads/library.js';
import { referenceValues } from '../../src/workloads/reference.js';
import { thrownBy } from './workload-helpers.js';

const graph = gridGraph({ rows: 3, cols: 4 }); // 12 vertices, pattern

describe('bindWorkload precision', () => {
  it('derives sparse inputs in the binding precision; a given graph keeps its own', () => {
    for (const precision of ['f32', 'f64'] as const) {
      const b = bindWorkload(workload('gcn'), graph, { precision });
      const [g, a] = b.values;
      expect(g!.data).toBe(graph);
      expect(a!.precision).toBe(precision);
      expect(b.values.filter((v) => v.kind === 'dense').every((v) => v.precision === precision)).toBe(true);
    }
  });

  it('an f64 input given to an f64 binding binds and computes', () => {
    const x = denseFeatures({ rows: 12, cols: 64, precision: 'f64', seed: 2 });
    const b = bindWorkload(workload('gcn'), { graph, X: x }, { precision: 'f64' });
    expect(referenceValues(b)[b.outputs[0]!]).toMatchObject({ rows: 12, cols: 8 });
  });

  it('refuses a given dense input whose precision differs from the binding', () => {
    const x = denseFeatures({ rows: 12, cols: 64, precision: 'f64', seed: 2 });
    const e = thrownBy(() => bindWorkload(workload('gcn'), { graph, X: x }));
    expect(e).toBeInstanceOf(InvalidArgumentError);
    expect(e.message).toContain('bindWorkload');
    expect(e.message).toContain('X');
  });
});
