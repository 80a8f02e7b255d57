// A prior pulls a fit with too few informative rows towards given coefficients, without
// overriding what the data determine, and malformed priors are refused.

import { describe, expect, it } from 'vitest';
import { fitRelative } from '../../src/cost/fit.js';
import { InvalidArgumentError } from '../../src/errors.js';

// Two terms that are almost the same column: the data cannot tell them apart.
const terms = Float64Array.of(1, 1.001, 2, 2.001, 3, 3.002, 4, 4.001);
const observed = Float64Array.of(2, 4, 6, 8); // any c with c0 + c1 ≈ 2 fits

describe('fitRelative prior', () => {
  it('settles an ill-determined split between terms near the prior', () => {
    const fit = fitRelative(terms, 4, 2, observed, { prior: { coefficients: [0.5, 1.5], weight: 0.1 } });
    expect(fit.coefficients[0]).toBeCloseTo(0.5, 1);
    expect(fit.coefficients[1]).toBeCloseTo(1.5, 1);
    expect(fit.mape).toBeLessThan(0.01);
  });

  it('does not override what the data determine', () => {
    const t = Float64Array.of(1, 10, 1, 100, 1, 1000, 1, 10000);
    const y = Float64Array.from([10, 100, 1000, 10000], (x) => 2e-6 + 1e-9 * x);
    const fit = fitRelative(t, 4, 2, y, { prior: { coefficients: [1e-5, 1e-8], weight: 0.01 } });
    expect(fit.coefficients[0]! / 2e-6).toBeCloseTo(1, 1);
    expect(fit.coefficients[1]! / 1e-9).toBeCloseTo(1, 1);
  });

  it('ignores zero prior entries (terms the device does not use)', () => {
    const a = fitRelative(terms, 4, 2, observed, { prior: { coefficients: [0, 0], weight: 1 } });
    const b = fitRelative(terms, 4, 2, observed);
    expect(Array.from(a.coefficients)).toEqual(Array.from(b.coefficients));
  });

  it('refuses a prior of the wrong length or weight', () => {
    expect(() => fitRelative(terms, 4, 2, observed, { prior: { coefficients: [1], weight: 0.1 } })).toThrow(InvalidArgumentError);
    expect(() => fitRelative(terms, 4, 2, observed, { prior: { coefficients: [1, 1], weight: -1 } })).toThrow(/fitRelative: prior/);
  });
});
