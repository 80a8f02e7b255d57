// The expression language evaluates numbers, $params and input dimensions with the usual
// precedence: unary minus, then * and / (left to right), then + and - (left to right).

import { describe, expect, it } from 'vitest';
import { exprRefs, parseExpr } from '../../src/workloads/expr.js';
import { evaluate } from './workload-helpers.js';

describe('expression values', () => {
  it('reads numbers as JSON numbers or as strings in every written form', () => {
    expect(evaluate(64)).toBe(64);
    expect(evaluate(-0.5)).toBe(-0.5);
    expect(evaluate('64')).toBe(64);
    expect(evaluate('2.5')).toBe(2.5);
    expect(evaluate('1.')).toBe(1);
    expect(evaluate('.25')).toBe(0.25);
    expect(evaluate('1e3')).toBe(1000);
    expect(evaluate('2.5E-1')).toBe(0.25);
    expect(evaluate('  7  ')).toBe(7);
  });

  it('looks up $params and input.rows / input.cols / input.nnz in the scope', () => {
    const dims = { graph: { rows: 100, cols: 90, nnz: 1234 } };
    expect(evaluate('$hidden', { hidden: 16 })).toBe(16);
    expect(evaluate('$_x1', { _x1: 3 })).toBe(3);
    expect(evaluate('graph.rows', {}, dims)).toBe(100);
    expect(evaluate('graph.cols', {}, dims)).toBe(90);
    expect(evaluate('graph.nnz', {}, dims)).toBe(1234);
    expect(evaluate('(1 - $damping) / graph.rows', { damping: 0.85 }, dims)).toBeCloseTo(0.0015, 15);
  });

  it('binds * and / tighter than + and -, each left to right', () => {
    expect(evaluate('1 + 2 * 3')).toBe(7);
    expect(evaluate('2 * 3 + 1')).toBe(7);
    expect(evaluate('10 - 4 - 3')).toBe(3);
    expect(evaluate('8 / 4 / 2')).toBe(1);
    expect(evaluate('2 * 3 / 4')).toBe(1.5);
    expect(evaluate('1 - 6 / 3 * 2')).toBe(-3);
    expect(evaluate('1+2*3-4/2')).toBe(5);
  });

  it('lets parentheses override precedence, nested to any depth', () => {
    expect(evaluate('(1 + 2) * 3')).toBe(9);
    expect(evaluate('10 - (4 - 3)')).toBe(9);
    expect(evaluate('8 / (4 / 2)')).toBe(4);
    expect(evaluate('((((2))))')).toBe(2);
    expect(evaluate('2 * (3 + (4 - 1) * 2)')).toBe(18);
  });

  it('reads a leading minus as negation of the next operand, repeatable', () => {
    expect(evaluate('-3')).toBe(-3);
    expect(evaluate('-2 * -3')).toBe(6);
    expect(evaluate('2 - -3')).toBe(5);
    expect(evaluate('- -4')).toBe(4);
    expect(evaluate('-(2 + 3)')).toBe(-5);
    expect(evaluate('-$x', { x: 7 })).toBe(-7);
    expect(evaluate('-g.rows + 1', {}, { g: { rows: 5, cols: 5, nnz: 9 } })).toBe(-4);
  });

  it('builds the expected tree and reports every name it refers to', () => {
    expect(parseExpr('1 + 2 * $k')).toEqual({
      t: 'bin',
      op: '+',
      l: { t: 'num', v: 1 },
      r: { t: 'bin', op: '*', l: { t: 'num', v: 2 }, r: { t: 'param', name: 'k' } },
    });
    const e = parseExpr('-(A.rows * $a) / (B.nnz - $b + A.cols)');
    if (typeof e === 'string') expect.fail(e);
    const refs = { params: new Set<string>(), inputs: new Set<string>() };
    exprRefs(e, refs);
    expect([...refs.params].sort()).toEqual(['a', 'b']);
    expect([...refs.inputs].sort()).toEqual(['A', 'B']);
  });
});
