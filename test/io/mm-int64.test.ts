// Matrix Market `integer` values are 64-bit in the files scipy and numpy write: beyond 2^53 they
// are read as the nearest double with one warning naming the first, exactly (nothing to round)
// when only the pattern is kept, and refused beyond the 64-bit range.

import { describe, expect, it } from 'vitest';
import { parseMatrixMarket } from '../../src/io/index.js';
import type { CsrMatrix } from '../../src/data/csr.js';
import { expectFormatError } from './helpers.js';

const INTEGER = '%%MatrixMarket matrix coordinate integer general\n';
const BIG = '9007199254740993'; // 2^53 + 1: no double holds it
const MAX = '9223372036854775807'; // 2^63 - 1

function parse(text: string, options: object = {}): { a: CsrMatrix; warnings: string[] } {
  const warnings: string[] = [];
  const a = parseMatrixMarket(text, { format: 'coordinate', onWarning: (m: string) => warnings.push(m), ...options });
  return { a, warnings };
}

describe('64-bit integer values in Matrix Market files', () => {
  it('reads values beyond 2^53 as the nearest double, with one warning naming the first', () => {
    const { a, warnings } = parse(`${INTEGER}3 3 3\n1 1 ${BIG}\n2 2 -${MAX}\n3 3 7\n`);
    expect(Array.from(a.values!)).toEqual([2 ** 53, -(2 ** 63), 7]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toBe(
      `parseMatrixMarket: <buffer>: 2 integer values beyond 2^53 rounded to the nearest double (first on line 3: ${BIG} read as 9007199254740992); the pattern alone (pattern: true) loses nothing`,
    );
  });

  it('says nothing for values that a double holds exactly, however large', () => {
    const { a, warnings } = parse(`${INTEGER}2 2 2\n1 1 4611686018427387904\n2 2 -9223372036854775808\n`);
    expect(Array.from(a.values!)).toEqual([2 ** 62, -(2 ** 63)]);
    expect(warnings).toEqual([]);
  });

  it('keeps the pattern exactly and warns of nothing with pattern: true', () => {
    const { a, warnings } = parse(`${INTEGER}2 3 2\n1 3 ${BIG}\n2 1 ${MAX}\n`, { pattern: true });
    expect(a.values).toBeUndefined();
    expect([Array.from(a.rowPtr, Number), Array.from(a.colIdx)]).toEqual([
      [0, 1, 2],
      [2, 0],
    ]);
    expect(warnings).toEqual([]);
  });

  it('reads 64-bit values of array files too', () => {
    const warnings: string[] = [];
    const d = parseMatrixMarket(`%%MatrixMarket matrix array integer general\n2 1\n${BIG}\n1\n`, {
      format: 'array',
      onWarning: (m: string) => warnings.push(m),
    });
    expect(Array.from(d.data)).toEqual([2 ** 53, 1]);
    expect(warnings).toHaveLength(1);
  });

  it('refuses values outside the 64-bit range with their line', () => {
    const e = expectFormatError(() => parse(`${INTEGER}2 2 2\n1 1 1\n2 2 9223372036854775808\n`), 4);
    expect(e.message).toContain('value "9223372036854775808" is outside the 64-bit integer range');
    expect(expectFormatError(() => parse(`${INTEGER}1 1 1\n1 1 -9223372036854775809\n`), 3).message).toContain('outside the 64-bit integer range');
  });

  it('warns through process.emitWarning by default and refuses an onWarning that is not a function', () => {
    expect(() => parseMatrixMarket(`${INTEGER}1 1 1\n1 1 1\n`, { onWarning: 'stderr' as never })).toThrow(
      /parseMatrixMarket: onWarning must be a function, got "stderr"/,
    );
  });
});
