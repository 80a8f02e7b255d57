// A probe runs an operator on the real sparse input and, for the dense values a plan computes
// first (intermediates, absent while planning), on stand-ins with every element written. Before,
// the stand-ins were fresh zeroed arrays whose pages all mapped one shared zero page: an SpMM
// gathering from one read a single cached page and was priced 1.6-1.8x low on the CPU.

import { describe, expect, it } from 'vitest';
import { DenseMatrix } from '../../src/data/dense.js';
import { generate } from '../../src/generators/index.js';
import { PROBE_FILL, probeOperands } from '../../src/scheduler/probe-operands.js';
import { bindWorkload } from '../../src/workloads/bind.js';
import { workload } from '../../src/workloads/library.js';
import { onLineBoundary } from '../support/aligned.js';

describe('probeOperands', () => {
  const graph = generate({ kind: 'grid', rows: 12, cols: 10, deleteFraction: 0, seed: 3 });
  const bound = bindWorkload(workload('gcn'), graph);

  it('passes data that exists (the graph, the input features) through unchanged', () => {
    for (const op of bound.ops) {
      const x = probeOperands(bound, op);
      op.operands.forEach((v, k) => {
        const val = bound.values[v]!;
        if (val.data) expect(x[k]).toBe(val.data);
      });
    }
  });

  it('gives every intermediate a stand-in of its shape and precision with every element written', () => {
    let standIns = 0;
    for (const op of bound.ops) {
      const x = probeOperands(bound, op);
      op.operands.forEach((v, k) => {
        const val = bound.values[v]!;
        if (val.data || val.kind === 'sparse') return;
        standIns++;
        const m = x[k] as DenseMatrix;
        expect(m).toBeInstanceOf(DenseMatrix);
        expect([m.rows, m.cols, m.precision]).toEqual([val.rows, val.cols, val.precision]);
        expect(m.data.every((e) => e === PROBE_FILL)).toBe(true);
        expect(onLineBoundary(m.data)).toBe(true); // as the run's own arrays: a probe on misaligned data priced the CPU slow
      });
    }
    // GCN's aggregations, ReLU and second transform read intermediates.
    expect(standIns).toBeGreaterThanOrEqual(3);
  });
});
