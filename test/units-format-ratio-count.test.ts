// Ratios and counts as a person reads them: three significant digits for a ratio ("78.3x", not
// "78.30x" or "223.39x"), thousands separated in a count ("2,000 evaluated", not "2000").

import { describe, expect, it } from 'vitest';
import { formatCount, formatRatio } from '../src/units.js';

describe('formatRatio and formatCount', () => {
  it('writes ratios to three significant digits, large ones whole with separators', () => {
    expect([1, 1.1795, 1.2, 9.996, 14.35, 78.304, 223.39, 999.6, 1234.5, 0.5, 0.0123].map(formatRatio)).toEqual([
      '1.00x',
      '1.18x',
      '1.20x',
      '10.0x',
      '14.3x',
      '78.3x',
      '223x',
      '1,000x',
      '1,235x',
      '0.500x',
      '0.0123x',
    ]);
    expect(formatRatio(Number.POSITIVE_INFINITY)).toBe('Infinityx');
  });

  it('separates thousands in counts', () => {
    expect([0, 999, 2000, 576704232].map(formatCount)).toEqual(['0', '999', '2,000', '576,704,232']);
  });
});
