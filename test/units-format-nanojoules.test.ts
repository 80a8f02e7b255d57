// formatJoules (src/units.ts) goes down to nJ as formatSeconds goes down to ns: a BFS on the
// simulated CGRA of a graph without edges printed "predicted 326 ns, 0.0263 uJ", and zero
// energy printed "0.00 uJ" where zero seconds print "0 s".

import { describe, expect, it } from 'vitest';
import { formatJoules } from '../src/units.js';

describe('formatJoules below a microjoule', () => {
  it('writes nJ, three significant digits', () => {
    expect(formatJoules(2.63e-8)).toBe('26.3 nJ');
    expect(formatJoules(1e-9)).toBe('1.00 nJ');
  });

  it('rounds up into uJ instead of writing 1.00e+3 nJ', () => {
    expect(formatJoules(9.996e-7)).toBe('1.00 uJ');
  });

  it('writes zero as 0 J, as formatSeconds writes 0 s', () => {
    expect(formatJoules(0)).toBe('0 J');
  });
});
