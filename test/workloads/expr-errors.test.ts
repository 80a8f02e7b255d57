// Bad expressions come back as messages (never thrown, never eval'd), so defineWorkload and
// bindWorkload can attach the file and field; non-finite results are errors, not values.

import { describe, expect, it } from 'vitest';
import { parseExpr } from '../../src/workloads/expr.js';
import { evaluate } from './workload-helpers.js';

/** The parse error message, failing the test when the source parses. */
function parseError(source: unknown): string {
  const e = parseExpr(source);
  if (typeof e !== 'string') return expect.fail(`${JSON.stringify(source)} parsed as ${JSON.stringify(e)}`);
  return e;
}

describe('expression errors', () => {
  it('refuses a character outside the grammar, giving where it stopped', () => {
    expect(parseError('2 % 3')).toMatch(/^cannot read "2 % 3" at character \d+$/);
    expect(parseError('#')).toBe('cannot read "#" at character 1');
    expect(parseError('graph.size')).toContain('cannot read');
    expect(parseError('graph.rowsx')).toContain('cannot read');
    expect(parseError('$')).toContain('cannot read');
    expect(parseError('hidden')).toContain('cannot read'); // a bare word is neither $param nor input.field
    expect(parseError('Math.max(1, 2)')).toContain('cannot read');
  });

  it('points at the bad character itself when blanks precede it', () => {
    expect(parseError('2 # 3')).toBe('cannot read "2 # 3" at character 3');
  });

  it('refuses an unclosed parenthesis', () => {
    expect(parseError('(1 + 2')).toBe('missing ")" in "(1 + 2"');
    expect(parseError('2 * ((3 + 4)')).toContain('missing ")"');
  });

  it('refuses text after a complete expression', () => {
    expect(parseError('2 3')).toBe('unexpected text after the expression in "2 3"');
    expect(parseError('(1 + 2))')).toContain('unexpected text after the expression');
    expect(parseError('$a $b')).toContain('unexpected text after the expression');
  });

  it('refuses an operator where an operand belongs, and an expression that stops early', () => {
    expect(parseError('* 2')).toBe('unexpected "*" in "* 2"');
    expect(parseError(')')).toContain('unexpected ")"');
    expect(parseError('+2')).toContain('unexpected "+"');
    expect(parseError('2 +')).toBe('ends early in "2 +"');
    expect(parseError('()')).toContain('unexpected ")"');
  });

  it('refuses empty text, non-finite numbers and values that are neither number nor string', () => {
    expect(parseError('')).toBe('is empty');
    expect(parseError('   ')).toBe('is empty');
    expect(parseError(Infinity)).toBe('must be finite, got Infinity');
    expect(parseError(Number.NaN)).toBe('must be finite, got NaN');
    expect(parseError(true)).toBe('must be a number or an expression string, got boolean');
    expect(parseError(null)).toContain('got object');
    expect(parseError(undefined)).toContain('got undefined');
  });

  it('reports division by zero and overflow as not finite when evaluated', () => {
    expect(evaluate('1 / 0')).toBe('evaluates to Infinity');
    expect(evaluate('-1 / (2 - 2)')).toBe('evaluates to -Infinity');
    expect(evaluate('0 / 0')).toBe('evaluates to NaN');
    expect(evaluate('$n / graph.rows', { n: 3 }, { graph: { rows: 0, cols: 0, nnz: 0 } })).toBe('evaluates to Infinity');
    expect(evaluate('1e308 * 10')).toBe('evaluates to Infinity');
  });

  it('refuses a number literal that overflows to Infinity', () => {
    expect(evaluate('1e999')).toEqual(expect.any(String)); // a message, not the number Infinity
  });

  it('names an unknown $param or input when evaluated', () => {
    expect(evaluate('$hidden + 1')).toBe('unknown parameter $hidden');
    expect(evaluate('2 * graph.rows')).toBe('unknown input graph');
    expect(evaluate('-$x')).toBe('unknown parameter $x');
  });
});
