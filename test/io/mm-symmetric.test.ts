// Symmetric and skew-symmetric coordinate files: either triangle is accepted, the other is filled
// in, and an entry stored in both triangles is a duplicate resolved by the duplicates policy.

import { describe, expect, it } from 'vitest';
import type { CsrMatrix } from '../../src/data/csr.js';
import { parseMatrixMarket } from '../../src/io/index.js';
import { toDense } from './helpers.js';

const SYM = '%%MatrixMarket matrix coordinate real symmetric\n';
const SKEW = '%%MatrixMarket matrix coordinate real skew-symmetric\n';
const parse = (text: string, opts = {}): CsrMatrix => parseMatrixMarket(text, { format: 'coordinate', ...opts });

describe('symmetric Matrix Market files', () => {
  it('mirrors the stored lower triangle and marks the result symmetric', () => {
    const a = parse(SYM + '3 3 3\n1 1 4\n2 1 -1\n3 2 2.5\n');
    expect(a.symmetric).toBe(true);
    expect(a.sortedColumns).toBe(true);
    expect(toDense(a)).toEqual([
      [4, -1, 0],
      [-1, 0, 2.5],
      [0, 2.5, 0],
    ]);
  });

  it('accepts entries stored in the upper triangle', () => {
    expect(toDense(parse(SYM + '2 2 1\n1 2 7\n'))).toEqual([
      [0, 7],
      [7, 0],
    ]);
  });

  it('treats (i, j) and (j, i) as one entry stored twice', () => {
    const text = SYM + '2 2 2\n2 1 3\n1 2 5\n';
    expect(toDense(parse(text))[1]).toEqual([8, 0]); // default 'sum'
    expect(toDense(parse(text, { duplicates: 'first' }))).toEqual([
      [0, 3],
      [3, 0],
    ]);
    expect(toDense(parse(text, { duplicates: 'last' }))[0]).toEqual([0, 5]);
    expect(toDense(parse(text, { duplicates: 'max' }))[1]).toEqual([5, 0]);
    expect(() => parse(text, { duplicates: 'error' })).toThrow(/duplicate/);
  });

  it('gives symmetric pattern graphs symmetric: true and one entry per stored pair', () => {
    const a = parse('%%MatrixMarket matrix coordinate pattern symmetric\n3 3 3\n2 1\n1 2\n3 3\n');
    expect(a.symmetric).toBe(true);
    expect(a.values).toBeUndefined();
    expect(toDense(a)).toEqual([
      [0, 1, 0],
      [1, 0, 0],
      [0, 0, 1],
    ]);
  });

  it('drops self-loops on request', () => {
    const a = parse('%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 3\n', { dropSelfLoops: true });
    expect(a.nnz).toBe(2);
  });
});

describe('skew-symmetric Matrix Market files', () => {
  it('fills the other triangle with negated values', () => {
    expect(toDense(parse(SKEW + '3 3 2\n2 1 3\n1 3 2\n'))).toEqual([
      [0, -3, 2],
      [3, 0, 0],
      [-2, 0, 0],
    ]);
  });

  it('keeps the result skew-symmetric under every duplicates policy', () => {
    // (2, 1) = 3 and (1, 2) = 5 mean A[1][0] = 3 and A[1][0] = -5.
    const text = SKEW + '2 2 2\n2 1 3\n1 2 5\n';
    const lower = { sum: -2, first: 3, last: -5, max: 3, min: -5 } as const;
    for (const [policy, v] of Object.entries(lower)) {
      const d = toDense(parse(text, { duplicates: policy }));
      expect({ policy, lower: d[1]![0], upper: d[0]![1] }).toEqual({ policy, lower: v, upper: -v });
    }
  });
});
