// Skew-symmetric Matrix Market files with diagonal entries, which scipy reads and writes: the
// entries are kept as stored (not mirrored), explicit zeros silently, nonzero ones with a warning.

import { describe, expect, it } from 'vitest';
import { parseMatrixMarket } from '../../src/io/index.js';
import { toDense } from './helpers.js';

const SKEW = '%%MatrixMarket matrix coordinate real skew-symmetric\n';

describe('skew-symmetric files with diagonal entries', () => {
  it('keeps explicit zeros on the diagonal and mirrors the rest', () => {
    const warnings: string[] = [];
    const a = parseMatrixMarket(`${SKEW}3 3 4\n1 1 0\n2 1 3\n2 2 0.0\n3 1 -2\n`, { format: 'coordinate', onWarning: (m) => warnings.push(m) });
    expect(toDense(a)).toEqual([
      [0, -3, 2],
      [3, 0, 0],
      [-2, 0, 0],
    ]);
    expect(a.nnz).toBe(6); // the two stored diagonal zeros stay explicit, as in scipy
    expect(a.symmetric).toBe(true);
    expect(warnings).toEqual([]);
  });

  it('keeps a nonzero diagonal entry as stored, with a warning', () => {
    const warnings: string[] = [];
    const a = parseMatrixMarket(`${SKEW}2 2 2\n2 1 1.5\n2 2 4\n`, { format: 'coordinate', onWarning: (m) => warnings.push(m) });
    expect(toDense(a)).toEqual([
      [0, -1.5],
      [1.5, 4],
    ]);
    expect(warnings).toEqual(['parseMatrixMarket: <buffer>: 1 nonzero diagonal entry in a skew-symmetric matrix (first on line 4), kept as stored']);
  });
});
