// fitRelative refuses inputs a relative-error fit cannot use, naming the index and value.

import { describe, expect, it } from 'vitest';
import { fitRelative } from '../../src/cost/fit.js';
import { InvalidArgumentError } from '../../src/errors.js';

describe('fitRelative arguments', () => {
  const terms = Float64Array.of(1, 10, 1, 20, 1, 30);

  it('refuses an observation <= 0, NaN or Infinity', () => {
    expect(() => fitRelative(terms, 3, 2, Float64Array.of(1, 0, 3))).toThrow(
      new InvalidArgumentError('fitRelative: observed[1] = 0 must be a finite number > 0 (relative error divides by it)'),
    );
    expect(() => fitRelative(terms, 3, 2, Float64Array.of(1, 2, -3))).toThrow(/^fitRelative: observed\[2\] = -3 /);
    expect(() => fitRelative(terms, 3, 2, Float64Array.of(NaN, 2, 3))).toThrow(/^fitRelative: observed\[0\] = NaN /);
    expect(() => fitRelative(terms, 3, 2, Float64Array.of(1, Infinity, 3))).toThrow(/^fitRelative: observed\[1\] = Infinity /);
  });

  it('refuses a non-finite term by row and column', () => {
    expect(() => fitRelative(Float64Array.of(1, 10, 1, NaN, 1, 30), 3, 2, Float64Array.of(1, 2, 3))).toThrow(
      /^fitRelative: terms\[1, 1\] = NaN is not finite$/,
    );
  });

  it('refuses an underdetermined system', () => {
    expect(() => fitRelative(Float64Array.of(1, 2, 3), 1, 3, Float64Array.of(1))).toThrow(/^fitRelative: 1 rows cannot determine 3 coefficients/);
  });

  it('refuses unknown options and mismatched lengths', () => {
    expect(() => fitRelative(terms, 3, 2, Float64Array.of(1, 2, 3), { nonnegative: true } as never)).toThrow(
      /^fitRelative: unknown option "nonnegative" \(did you mean "nonNegative"\?\)/,
    );
    expect(() => fitRelative(terms, 3, 2, Float64Array.of(1, 2))).toThrow(/^fitRelative: observed has 2 elements, rows = 3$/);
  });
});
