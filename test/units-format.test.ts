// formatSeconds and formatJoules (src/units.ts): three significant digits in s/ms/us/ns and J/mJ/uJ (nJ: units-format-nanojoules.test.ts).

import { describe, expect, it } from 'vitest';
import { formatJoules, formatSeconds } from '../src/units.js';

describe('formatSeconds', () => {
  it('picks the unit by magnitude', () => {
    expect(formatSeconds(2)).toBe('2.00 s');
    expect(formatSeconds(12.345)).toBe('12.3 s');
    expect(formatSeconds(1)).toBe('1.00 s');
    expect(formatSeconds(0.0123)).toBe('12.3 ms');
    expect(formatSeconds(1e-3)).toBe('1.00 ms');
    expect(formatSeconds(4.56e-5)).toBe('45.6 us');
    expect(formatSeconds(7e-7)).toBe('700 ns');
    expect(formatSeconds(1e-9)).toBe('1.00 ns');
    expect(formatSeconds(0)).toBe('0 s');
  });

  it('shows non-finite values as they are', () => {
    expect(formatSeconds(Infinity)).toBe('Infinity');
    expect(formatSeconds(NaN)).toBe('NaN');
  });

  // The unit is picked after rounding to three digits, never "1.00e+3" of the smaller one.
  it('rounds up into the next unit instead of writing 1.00e+3 of the smaller one', () => {
    expect(formatSeconds(0.9999)).toBe('1.00 s');
    expect(formatSeconds(0.0009996)).toBe('1.00 ms');
    expect(formatJoules(0.9996)).toBe('1.00 J');
  });
});

describe('formatJoules', () => {
  it('picks the unit by magnitude', () => {
    expect(formatJoules(3.5)).toBe('3.50 J');
    expect(formatJoules(0.0042)).toBe('4.20 mJ');
    expect(formatJoules(2.25e-6)).toBe('2.25 uJ');
    expect(formatJoules(-Infinity)).toBe('-Infinity');
  });
});
