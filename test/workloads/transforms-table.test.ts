// TRANSFORMS names each graph transform; applying an entry equals calling the function.

import { describe, expect, it } from 'vitest';
import { transpose } from '../../src/data/convert.js';
import { gcnNormalise, meanAggregator, pagerankMatrix, TRANSFORMS } from '../../src/workloads/transforms.js';
import { randomCsr } from '../data/helpers.js';
import { dense } from './helpers.js';

describe('TRANSFORMS', () => {
  const a = randomCsr(10, 10, 2, { values: 'pattern', density: 0.3 });

  it('lists exactly the four transforms, each described', () => {
    expect([...TRANSFORMS.keys()].sort()).toEqual(['gcn-normalise', 'mean-aggregator', 'pagerank-matrix', 'transpose']);
    for (const t of TRANSFORMS.values()) expect(t.description.length).toBeGreaterThan(10);
  });

  it('applies the same computation as the named functions, in the requested precision', () => {
    const direct = { 'gcn-normalise': gcnNormalise, 'mean-aggregator': meanAggregator, 'pagerank-matrix': pagerankMatrix };
    for (const [name, f] of Object.entries(direct)) {
      for (const precision of ['f32', 'f64'] as const) {
        const viaTable = TRANSFORMS.get(name)!.apply(a, precision);
        expect(viaTable.values).toBeInstanceOf(precision === 'f32' ? Float32Array : Float64Array);
        expect(viaTable.values).toEqual(f(a, precision).values);
        expect(viaTable.colIdx).toEqual(f(a, precision).colIdx);
      }
    }
  });

  it('transpose gives A^T with values of the precision asked for (ones for a pattern)', () => {
    const rect = randomCsr(4, 7, 3, { values: 'f64', density: 0.5 });
    const t = TRANSFORMS.get('transpose')!.apply(rect, 'f32');
    expect([t.rows, t.cols]).toEqual([7, 4]);
    expect(t.values).toBeInstanceOf(Float32Array);
    expect(dense(t)).toEqual(dense(transpose(rect)));
    const pt = TRANSFORMS.get('transpose')!.apply(a, 'f64');
    expect(pt.values).toEqual(new Float64Array(a.nnz).fill(1));
    expect(pt.colIdx).toEqual(transpose(a).colIdx);
  });
});
