// Every malformed Matrix Market input is a FormatError naming the input and the 1-based line.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadMatrixMarket, parseMatrixMarket } from '../../src/io/index.js';
import { expectFormatError, expectFormatErrorAsync, tempDir } from './helpers.js';

const REAL = '%%MatrixMarket matrix coordinate real general\n';
const PATTERN = '%%MatrixMarket matrix coordinate pattern general\n';
const INTEGER = '%%MatrixMarket matrix coordinate integer general\n';
const ARRAY = '%%MatrixMarket matrix array real general\n';

// [name, input, line, part of the message]
const cases: [string, string, number, string][] = [
  ['empty input', '', 1, 'missing the %%MatrixMarket banner'],
  ['no banner', '3 3 1\n1 1 1\n', 1, 'missing the %%MatrixMarket banner'],
  ['banner after a comment', '% hi\n' + REAL + '1 1 0\n', 1, 'missing the %%MatrixMarket banner'],
  ['banner with four words', '%%MatrixMarket matrix coordinate real\n1 1 0\n', 1, 'the banner must read'],
  ['unknown object', '%%MatrixMarket vector coordinate real general\n', 1, 'unknown object "vector"'],
  ['unknown format', '%%MatrixMarket matrix sparse real general\n', 1, 'unknown format "sparse"'],
  ['unknown field', '%%MatrixMarket matrix coordinate double general\n', 1, 'unknown field "double"'],
  ['unknown symmetry', '%%MatrixMarket matrix coordinate real diagonal\n', 1, 'unknown symmetry "diagonal"'],
  ['array pattern', '%%MatrixMarket matrix array pattern general\n1 1\n', 1, 'cannot have the pattern field'],
  ['skew pattern', '%%MatrixMarket matrix coordinate pattern skew-symmetric\n', 1, 'cannot have the pattern field'],
  ['missing size line', REAL + '% only a comment\n\n', 4, 'missing the size line'],
  ['negative size', REAL + '-3 3 1\n1 1 1\n', 2, 'row count must be a non-negative integer, got "-3"'],
  ['fractional size', REAL + '3 3.5 1\n', 2, 'column count must be a non-negative integer, got "3.5"'],
  ['size line without the entry count', REAL + '3 3\n', 2, 'missing entry count'],
  ['size line with an extra field', REAL + '3 3 1 7\n', 2, 'unexpected extra field "7"'],
  ['non-square symmetric', '%%MatrixMarket matrix coordinate real symmetric\n3 4 0\n', 2, 'must be square'],
  ['truncated', REAL + '3 3 2\n1 1 1\n', 4, 'ends after 1 of the 2 entries declared on line 2'],
  ['truncated without a final newline', REAL + '3 3 3\n1 1 1\n2 2 2', 5, 'ends after 2 of the 3 entries'],
  ['too many entries', REAL + '3 3 1\n1 1 1\n2 2 2\n', 4, 'more entries than the 1 declared on line 2'],
  ['non-numeric row', REAL + '3 3 1\nx 1 1\n', 3, 'row index must be a non-negative integer, got "x"'],
  ['negative row', REAL + '3 3 1\n-1 1 1\n', 3, 'row index must be a non-negative integer, got "-1"'],
  ['fractional column', REAL + '3 3 1\n1 1.0 1\n', 3, 'column index must be a non-negative integer, got "1.0"'],
  ['row 0', REAL + '3 3 1\n0 1 1\n', 3, 'row index 0 is outside [1, 3]'],
  ['row beyond rows', REAL + '3 3 1\n4 1 1\n', 3, 'row index 4 is outside [1, 3]'],
  ['column beyond cols', REAL + '3 5 1\n1 6 1\n', 3, 'column index 6 is outside [1, 5]'],
  ['huge index', REAL + '3 3 1\n99999999999999999999 1 1\n', 3, 'exceeds 2^53 - 1'],
  ['missing column', REAL + '3 3 1\n1\n', 3, 'missing column index'],
  ['missing value', REAL + '3 3 1\n1 1\n', 3, 'missing value'],
  ['non-numeric value', REAL + '3 3 1\n1 1 abc\n', 3, 'value must be a number, got "abc"'],
  ['NaN value', REAL + '3 3 1\n1 1 NaN\n', 3, 'got "NaN"'],
  ['nan value', REAL + '3 3 1\n1 1 nan\n', 3, 'got "nan"'],
  ['Infinity value', REAL + '3 3 1\n1 1 -Infinity\n', 3, 'got "-Infinity"'],
  ['inf value', REAL + '3 3 1\n1 1 inf\n', 3, 'got "inf"'],
  ['overflowing value', REAL + '3 3 1\n1 1 1e999\n', 3, 'out of the range of a double'],
  ['hex value', REAL + '3 3 1\n1 1 0x10\n', 3, 'got "0x10"'],
  ['two dots', REAL + '3 3 1\n1 1 1.5.2\n', 3, 'got "1.5.2"'],
  ['dangling exponent', REAL + '3 3 1\n1 1 1e\n', 3, 'got "1e"'],
  ['lone dot', REAL + '3 3 1\n1 1 .\n', 3, 'got "."'],
  ['lone sign', REAL + '3 3 1\n1 1 -\n', 3, 'got "-"'],
  ['fractional integer value', INTEGER + '3 3 1\n1 1 1.5\n', 3, 'value must be an integer, got "1.5"'],
  ['pattern with a value', PATTERN + '3 3 1\n1 1 5\n', 3, 'unexpected extra field "5"'],
  ['real with an extra field', REAL + '3 3 1\n1 1 5 6\n', 3, 'unexpected extra field "6"'],
  ['error after comments and blank lines', REAL + '% a\n\n3 3 2\n1 1 1\n% mid\n\n2 x 1\n', 8, 'column index must be'],
  ['CRLF line endings', REAL.replace('\n', '\r\n') + '3 3 2\r\n1 1 1\r\n2 2 x\r\n', 4, 'got "x"'],
  ['array: too many values', ARRAY + '1 2\n1\n2\n3\n', 5, 'more elements than the 2 declared'],
  ['array: too few values', ARRAY + '2 2\n1\n2\n3\n', 6, 'ends after 3 of the 4 elements declared on line 2'],
  ['array: two values on a line', ARRAY + '1 2\n1 2\n', 3, 'unexpected extra field "2"'],
  ['array: non-numeric value', ARRAY + '1 2\n1\nx\n', 4, 'value must be a number, got "x"'],
  ['array: size line with three fields', ARRAY + '1 2 2\n', 2, 'unexpected extra field "2"'],
];

describe('parseMatrixMarket rejects malformed input with the line', () => {
  it.each(cases)('%s', (_name, input, line, message) => {
    const e = expectFormatError(() => parseMatrixMarket(input), line);
    expect(e.message).toContain(message);
    expect(e.message.startsWith(`parseMatrixMarket: <buffer>:${line}: `)).toBe(true);
  });

  it('uses the label option as the file name', () => {
    expectFormatError(() => parseMatrixMarket(REAL + '1 1 1\n2 1 1\n', { label: 'fixture.mtx' }), 3, 'fixture.mtx');
  });

  it('rejects a value that overflows single precision when precision is f32', () => {
    const e = expectFormatError(() => parseMatrixMarket(REAL + '1 1 1\n1 1 1e39\n', { precision: 'f32' }), 3);
    expect(e.message).toContain('overflows single precision');
  });

  it('reports duplicates under the error policy (not tied to a line)', () => {
    const e = expectFormatError(() => parseMatrixMarket(REAL + '2 2 2\n1 1 1\n1 1 2\n', { duplicates: 'error' }), 0);
    expect(e.message).toContain('duplicate');
  });

  it('rejects a file of the other format when format is given', () => {
    const e = expectFormatError(() => parseMatrixMarket(ARRAY + '1 1\n1\n', { format: 'coordinate' }), 1);
    expect(e.message).toContain('expected a coordinate matrix');
  });
});

describe('loadMatrixMarket names the file in errors', () => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);

  it('reports the path and the line of a bad entry', async () => {
    const path = join(dir, 'bad.mtx');
    writeFileSync(path, REAL + '% comment\n4 4 2\n1 1 1\n5 1 1\n');
    const e = await expectFormatErrorAsync(() => loadMatrixMarket(path), 5, path);
    expect(e.message).toContain('row index 5 is outside [1, 4]');
  });

  it('reports truncation at the line after the last one', async () => {
    const path = join(dir, 'short.mtx');
    writeFileSync(path, PATTERN + '4 4 3\n1 1\n2 2\n');
    await expectFormatErrorAsync(() => loadMatrixMarket(path), 5, path);
  });
});
