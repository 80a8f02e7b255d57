// Array (dense) Matrix Market files: column-major in the file, row-major DenseMatrix in memory.

import { describe, expect, it } from 'vitest';
import { DenseMatrix } from '../../src/data/dense.js';
import { parseMatrixMarket } from '../../src/io/index.js';

describe('array Matrix Market files', () => {
  it('reads a general matrix column by column into row-major storage', () => {
    const a = parseMatrixMarket('%%MatrixMarket matrix array real general\n% c\n2 3\n1\n4\n2\n5\n3\n6\n');
    expect(a).toBeInstanceOf(DenseMatrix);
    const d = a as DenseMatrix;
    expect([d.rows, d.cols, d.precision]).toEqual([2, 3, 'f64']);
    expect(Array.from(d.data)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('expands symmetric and skew-symmetric matrices from their lower triangle', () => {
    const s = parseMatrixMarket('%%MatrixMarket matrix array integer symmetric\n3 3\n1\n2\n3\n4\n5\n6\n', { format: 'array' });
    expect(Array.from(s.data)).toEqual([1, 2, 3, 2, 4, 5, 3, 5, 6]);
    const k = parseMatrixMarket('%%MatrixMarket matrix array real skew-symmetric\n3 3\n1\n2\n3\n', { format: 'array' });
    expect(Array.from(k.data)).toEqual([0, -1, -2, 1, 0, -3, 2, 3, 0]);
  });

  it('honours precision f32 and accepts an empty matrix', () => {
    const a = parseMatrixMarket('%%MatrixMarket matrix array real general\n1 1\n0.1\n', { format: 'array', precision: 'f32' });
    expect(a.data).toBeInstanceOf(Float32Array);
    expect(a.data[0]).toBe(Math.fround(0.1));
    const e = parseMatrixMarket('%%MatrixMarket matrix array real general\n0 5\n', { format: 'array' });
    expect([e.rows, e.cols, e.data.length]).toEqual([0, 5, 0]);
  });
});
