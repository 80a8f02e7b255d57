// Dense inputs the data does not give are generated: seeded random values (the same for the
// same seed, different for another) or a constant fill, in the binding's precision.

import { describe, expect, it } from 'vitest';
import type { DenseMatrix } from '../../src/data/dense.js';
import { gridGraph } from '../../src/generators/grid.js';
import { bindWorkload, type BoundWorkload } from '../../src/workloads/bind.js';
import { workload } from '../../src/workloads/library.js';

const graph = gridGraph({ rows: 4, cols: 4 }); // 16 vertices

function input(b: BoundWorkload, name: string): DenseMatrix {
  return b.values.find((v) => v.name === name)!.data as DenseMatrix;
}

describe('bindWorkload generated inputs', () => {
  it('generates the same values for the same seed, the default seed being 1', () => {
    const a = bindWorkload(workload('gcn'), graph, { seed: 5 });
    const b = bindWorkload(workload('gcn'), graph, { seed: 5 });
    for (const name of ['X', 'W1', 'W2']) {
      expect(input(a, name).data).toEqual(input(b, name).data);
      expect(input(a, name).data).not.toBe(input(b, name).data);
    }
    expect(input(bindWorkload(workload('gcn'), graph), 'X').data).toEqual(input(bindWorkload(workload('gcn'), graph, { seed: 1 }), 'X').data);
  });

  it('generates different values for another seed', () => {
    const a = bindWorkload(workload('gcn'), graph, { seed: 5 });
    const b = bindWorkload(workload('gcn'), graph, { seed: 6 });
    for (const name of ['X', 'W1', 'W2']) expect(input(a, name).data).not.toEqual(input(b, name).data);
  });

  it('gives each generated input of one binding its own values, uniform in [-1, 1)', () => {
    const b = bindWorkload(workload('sage'), graph); // Ws and Wn have the same shape
    const ws = input(b, 'Ws').data;
    const wn = input(b, 'Wn').data;
    expect(ws).not.toEqual(wn);
    const all = [...ws, ...wn];
    expect(Math.min(...all)).toBeGreaterThanOrEqual(-1);
    expect(Math.max(...all)).toBeLessThan(1);
    expect(Math.min(...ws)).toBeLessThan(-0.5);
    expect(Math.max(...ws)).toBeGreaterThan(0.5);
  });

  it('draws the inputs of neighbouring seeds from unrelated streams', () => {
    const one = input(bindWorkload(workload('gcn'), graph, { seed: 1 }), 'W1').data;
    const two = input(bindWorkload(workload('gcn'), graph, { seed: 2 }), 'X').data;
    expect(two.subarray(0, 64)).not.toEqual(one.subarray(0, 64));
  });

  it('generates in the workload precision unless the binding sets another', () => {
    expect(input(bindWorkload(workload('gcn'), graph), 'X').data).toBeInstanceOf(Float32Array);
    const b = bindWorkload(workload('gcn'), graph, { precision: 'f64' });
    expect(b.precision).toBe('f64');
    expect(input(b, 'X').data).toBeInstanceOf(Float64Array);
    expect(b.values.find((v) => v.name === 'A')!.precision).toBe('f64');
    expect(input(bindWorkload(workload('pagerank'), graph), 'x0').data).toBeInstanceOf(Float64Array);
    expect(input(bindWorkload(workload('pagerank'), graph, { precision: 'f32' }), 'x0').data).toBeInstanceOf(Float32Array);
  });

  it('fills a constant input with its evaluated fill expression', () => {
    const x0 = input(bindWorkload(workload('pagerank'), graph), 'x0');
    expect([x0.rows, x0.cols]).toEqual([16, 1]);
    expect([...x0.data]).toEqual(new Array(16).fill(1 / 16));
  });
});
