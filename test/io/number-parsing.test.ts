// Decimal values parsed from bytes are the correctly rounded doubles that Number() gives, on both
// the fast path (short mantissas) and the fallback (long ones), and integers are exact.

import { describe, expect, it } from 'vitest';
import { parseMatrixMarket } from '../../src/io/index.js';

function readValues(tokens: string[], field = 'real', precision: 'f32' | 'f64' = 'f64'): Float32Array | Float64Array {
  const body = tokens.map((t, i) => `${i + 1} 1 ${t}\n`).join('');
  const a = parseMatrixMarket(`%%MatrixMarket matrix coordinate ${field} general\n${tokens.length} 1 ${tokens.length}\n${body}`, {
    format: 'coordinate',
    precision,
  });
  return a.values!;
}

describe('number parsing', () => {
  it('matches Number() on hand-picked decimals', () => {
    const tokens = [
      '0',
      '-0',
      '+1',
      '1.',
      '.5',
      '-.5',
      '0.1',
      '0.30000000000000004',
      '1e0',
      '1E+2',
      '1e-2',
      '2.5e-3',
      '123456789012345',
      '1234567890123456789',
      '9007199254740993',
      '0.000000000000000000001',
      '1e22',
      '1e23',
      '4.9e-324',
      '2.2250738585072011e-308',
      '1.7976931348623157e308',
      '-564.2036607119013',
      '00012.50',
      '7.0e-10',
      '3.14159265358979323846264338327950288',
    ];
    const got = readValues(tokens);
    tokens.forEach((t, i) => expect({ t, v: got[i] }).toEqual({ t, v: Number(t) }));
    expect(Object.is(got[1], -0)).toBe(true);
  });

  it('matches Number() on random decimals of every length and exponent', () => {
    let seed = 12345;
    const next = (): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed;
    };
    const tokens: string[] = [];
    for (let k = 0; k < 3000; k++) {
      const digits = 1 + (next() % 20);
      let s = '';
      for (let d = 0; d < digits; d++) s += String(next() % 10);
      const dot = next() % (digits + 1);
      s = `${s.slice(0, dot)}.${s.slice(dot)}`;
      if (s === '.') s = '0';
      if (next() % 2) s += `e${(next() % 80) - 40}`;
      tokens.push(next() % 2 ? `-${s}` : s);
    }
    const got = readValues(tokens);
    const bad = tokens.findIndex((t, i) => !Object.is(got[i], Number(t)));
    expect(bad === -1 ? 'all equal' : `${tokens[bad]} -> ${got[bad]}`).toBe('all equal');
  });

  it('reads integer fields exactly up to 2^53 - 1 and rounds f32 values like Math.fround', () => {
    expect(Array.from(readValues(['-9007199254740991', '+42', '0'], 'integer'))).toEqual([-9007199254740991, 42, 0]);
    // 64-bit integers beyond 2^53: test/io/mm-int64.test.ts.
    expect(Array.from(readValues(['0.1', '16777217'], 'real', 'f32'))).toEqual([Math.fround(0.1), 16777216]);
  });
});
