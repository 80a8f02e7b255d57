// The shape rule of each session call: the output's shape from the operands', checked when the
// call is made, so a wrong shape throws at the call that is wrong (with the function's name and
// the values), not later at a handle. The same rules as bindWorkload's, stated on shapes alone.

import { CsrMatrix } from '../data/csr.js';
import { DenseMatrix, type Precision } from '../data/dense.js';
import { describe, InvalidArgumentError } from '../errors.js';
import { operatorKind } from '../operators/registry.js';
import type { OperatorName } from '../workloads/definition.js';
import { Handle, type HandleKind, type HandleShape } from './handle.js';

/** An operand of a call: user data, or a handle of the same session. */
export type Operand = CsrMatrix | DenseMatrix | Handle;

/** A recorded call: the operator, its operands and parameters, and the handle of its result. */
export interface Call {
  readonly handle: Handle;
  readonly kind: OperatorName;
  readonly operands: readonly Operand[];
  readonly params: Readonly<Record<string, number | string>> | undefined;
}

/** The shape of an operand (its kind: `sparse` or `dense` for data). */
export function shapeOf(x: Operand): HandleShape {
  if (x instanceof Handle) return x;
  if (x instanceof DenseMatrix) return { kind: 'dense', rows: x.rows, cols: x.cols, precision: x.precision };
  return { kind: 'sparse', rows: x.rows, cols: x.cols, precision: x.values instanceof Float64Array ? 'f64' : 'f32' };
}

/** The operand kind each position of a call needs. */
export function operandKind(fn: string, name: string, x: unknown, want: 'sparse' | 'dense'): HandleKind {
  let kind: HandleKind | undefined;
  if (x instanceof Handle) kind = x.kind;
  else if (x instanceof CsrMatrix) kind = 'sparse';
  else if (x instanceof DenseMatrix) kind = 'dense';
  if (kind === want) return kind;
  const what = want === 'sparse' ? 'a CsrMatrix or a handle of a sparse value' : 'a DenseMatrix or a handle of a dense value';
  const got = x instanceof Handle ? `handle ${x.toString()}` : describe(x);
  throw new InvalidArgumentError(`${fn}: ${name} must be ${what}, got ${got}`);
}

/**
 * The output shape of `kind` on operands of shapes `s` (named `names` in messages): the kind's own
 * shape rule (src/operators/).
 * @throws {InvalidArgumentError} naming the call and the shapes when they do not fit.
 */
export function outputShape(
  fn: string,
  kind: OperatorName,
  names: readonly string[],
  s: readonly HandleShape[],
  params: Readonly<Record<string, number | string>> = {},
): HandleShape {
  const bad = (detail: string): never => {
    throw new InvalidArgumentError(`${fn}: ${detail}`);
  };
  return operatorKind(kind, fn).shape(names, s, params, bad);
}

/** Keep one precision per session: bindWorkload binds every dense input of a batch at one. */
export function checkPrecision(fn: string, name: string, session: Precision | undefined, x: Operand): Precision | undefined {
  if (!(x instanceof DenseMatrix)) return session;
  if (session === undefined || session === x.precision) return x.precision;
  throw new InvalidArgumentError(
    `${fn}: ${name} is ${x.precision} but this session computes in ${session} (set by its first dense input or its precision option); convert it`,
  );
}
