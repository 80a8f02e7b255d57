// nnls refuses malformed systems with messages naming the function and the offending element,
// and stops with a LimitError instead of looping when its iteration cap is reached.

import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, LimitError } from '../../src/errors.js';
import { leastSquares, nnls } from '../../src/cost/nnls.js';
import { randomMatrix, randomVector } from './helpers.js';

describe('nnls arguments', () => {
  const a = Float64Array.of(1, 2, 3, 4);
  const b = Float64Array.of(1, 1);

  it('names a non-finite matrix element by row and column', () => {
    expect(() => nnls(Float64Array.of(1, 2, NaN, 4), 2, 2, b)).toThrow(new InvalidArgumentError('nnls: a[1, 0] = NaN is not finite'));
    expect(() => nnls(a, 2, 2, Float64Array.of(1, Infinity))).toThrow(/^nnls: b\[1\] = Infinity is not finite$/);
  });

  it('checks sizes and types', () => {
    expect(() => nnls(a, 2, 3, b)).toThrow(/^nnls: a has 4 elements, rows \* cols = 6$/);
    expect(() => nnls(a, 2, 2, Float64Array.of(1))).toThrow(/^nnls: b has 1 elements, rows = 2$/);
    expect(() => nnls([1, 2] as unknown as Float64Array, 1, 2, b)).toThrow(InvalidArgumentError);
    expect(() => nnls(a, 0, 4, b)).toThrow(/^nnls: rows must be in/);
    expect(() => nnls(a, 2, 2, b, { maxIteration: 3 } as never)).toThrow(/did you mean "maxIterations"/);
    expect(() => leastSquares(a, 2, 2, Float64Array.of(NaN, 0))).toThrow(/^leastSquares: b\[0\] = NaN/);
  });

  it('throws LimitError when the iteration cap is reached', () => {
    const rows = 30;
    const cols = 10;
    const big = randomMatrix(rows, cols, 5, 0, 1);
    const rhs = randomVector(rows, 9, 0, 1);
    expect(() => nnls(big, rows, cols, rhs)).not.toThrow();
    expect(() => nnls(big, rows, cols, rhs, { maxIterations: 1 })).toThrow(LimitError);
    expect(() => nnls(big, rows, cols, rhs, { maxIterations: 1 })).toThrow(/^nnls: no convergence after 1 /);
  });
});
