// Shared pieces of the workload-layer tests: a small valid definition to break one field at a
// time, an expression evaluator over plain records, and error capture for sync and async calls.

import { expect } from 'vitest';
import { DypeError, FormatError } from '../../src/errors.js';
import { evalExpr, parseExpr } from '../../src/workloads/expr.js';

/** A definition as loose JSON, so a test can write any wrong value into any field. */
// biome-ignore lint/suspicious/noExplicitAny: loose on purpose, see above
export type LooseDefinition = Record<string, any>;

/**
 * A valid one-layer GCN-like definition: a square graph, its normalised form, generated
 * features and two operators. Fresh on every call, so tests may mutate it.
 */
export function layerDefinition(): LooseDefinition {
  return {
    name: 'layer',
    params: { hidden: 8 },
    inputs: {
      graph: { kind: 'sparse', square: true },
      A: { kind: 'sparse', from: 'graph', transform: 'gcn-normalise' },
      X: { kind: 'dense', rows: 'graph.rows', cols: '$hidden', generate: 'random' },
    },
    operators: [
      { id: 'y', kind: 'spmm', inputs: ['A', 'X'] },
      { id: 'h', kind: 'relu', inputs: ['y'] },
    ],
    outputs: ['h'],
  };
}

/** Value of an expression string with the given params and input dimensions. */
export function evaluate(
  source: unknown,
  params: Readonly<Record<string, number>> = {},
  dims: Readonly<Record<string, { rows: number; cols: number; nnz: number }>> = {},
): number | string {
  const e = parseExpr(source);
  if (typeof e === 'string') return `parse: ${e}`;
  return evalExpr(e, {
    param: (name) => (Object.hasOwn(params, name) ? params[name] : undefined),
    dim: (input, field) => (Object.hasOwn(dims, input) ? dims[input]![field] : undefined),
  });
}

/** The DypeError `f` throws; fails the test when it throws nothing or something else. */
export function thrownBy(f: () => unknown): DypeError {
  try {
    f();
  } catch (e) {
    if (e instanceof DypeError) return e;
    throw e;
  }
  return expect.fail('expected a DypeError, none was thrown');
}

/** The DypeError the promise rejects with. */
export async function rejectionOf(p: Promise<unknown>): Promise<DypeError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof DypeError) return e;
    throw e;
  }
  return expect.fail('expected a rejection, the promise resolved');
}

/**
 * Assert a FormatError from defineWorkload whose message names the function, the source label
 * and every fragment given (the offending field first).
 */
export function expectDefineError(e: DypeError, where: string, ...fragments: string[]): void {
  expect(e).toBeInstanceOf(FormatError);
  expect(e.code).toBe('ERR_FORMAT');
  expect((e as FormatError).file).toBe(where);
  expect(e.message.startsWith(`defineWorkload: ${where}: `)).toBe(true);
  for (const f of fragments) expect(e.message).toContain(f);
}
