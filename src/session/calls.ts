// The shape rule of each session call: the output's shape from the operands', checked when the
// call is made, so a wrong shape throws at the call that is wrong (with the function's name and
// the values), not later at a handle. The same rules as bindWorkload's, stated on shapes alone.

import { CsrMatrix } from '../data/csr.js';
import { DenseMatrix, type Precision } from '../data/dense.js';
import { describe, InvalidArgumentError } from '../errors.js';
import type { WorkloadOpKind } from '../workloads/definition.js';
import { Handle, type HandleKind, type HandleShape } from './handle.js';

/** An operand of a call: user data, or a handle of the same session. */
export type Operand = CsrMatrix | DenseMatrix | Handle;

/** A recorded call: the operator, its operands and parameters, and the handle of its result. */
export interface Call {
  readonly handle: Handle;
  readonly kind: WorkloadOpKind;
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

const dims = (name: string, s: HandleShape): string => `${name} is ${s.rows} x ${s.cols}`;

/**
 * The output shape of `kind` on operands of shapes `s` (named `names` in messages).
 * @throws {InvalidArgumentError} naming the call and the shapes when they do not fit.
 */
export function outputShape(fn: string, kind: WorkloadOpKind, names: readonly string[], s: readonly HandleShape[]): HandleShape {
  const bad = (detail: string): never => {
    throw new InvalidArgumentError(`${fn}: ${detail}`);
  };
  const [a, b, c] = s as [HandleShape, HandleShape, HandleShape];
  const [na, nb, nc] = names as [string, string, string];
  switch (kind) {
    case 'spmm':
    case 'spmv':
      if (a.cols !== b.rows) bad(`${nb} has ${b.rows} rows but ${na} has ${a.cols} columns (${dims(na, a)})`);
      if (kind === 'spmv' && b.cols !== 1) bad(`${nb} must be a one-column vector, ${dims(nb, b)}`);
      return { kind: 'dense', rows: a.rows, cols: b.cols, precision: b.precision };
    case 'sddmm':
      if (b.rows !== a.rows || c.rows !== a.cols || b.cols !== c.cols) {
        bad(`needs ${nb} with ${a.rows} rows and ${nc} with ${a.cols} rows, of equal width; ${dims(nb, b)}, ${dims(nc, c)}`);
      }
      return { kind: 'sparse', rows: a.rows, cols: a.cols, precision: b.precision };
    case 'gemm':
      if (a.cols !== b.rows) bad(`${dims(na, a)} but ${dims(nb, b)}: inner dimensions differ`);
      return { kind: 'dense', rows: a.rows, cols: b.cols, precision: a.precision };
    case 'add':
      if (a.rows !== b.rows || a.cols !== b.cols) bad(`operands differ in shape: ${dims(na, a)}, ${dims(nb, b)}`);
      return { kind: 'dense', rows: a.rows, cols: a.cols, precision: a.precision };
    case 'relu':
    case 'affine':
      return { kind: 'dense', rows: a.rows, cols: a.cols, precision: a.precision };
    case 'reduce':
      return { kind: 'dense', rows: 1, cols: a.cols, precision: a.precision };
    case 'bfs':
    case 'msbfs':
      if (a.rows !== a.cols) bad(`${na} must be square (a graph), ${dims(na, a)}`);
      if (a.rows === 0) bad(`${na} is empty (0 x 0)`);
      return { kind: 'depths', rows: 1, cols: a.rows, precision: 'f32' };
  }
}

/** Keep one precision per session: bindWorkload binds every dense input of a batch at one. */
export function checkPrecision(fn: string, name: string, session: Precision | undefined, x: Operand): Precision | undefined {
  if (!(x instanceof DenseMatrix)) return session;
  if (session === undefined || session === x.precision) return x.precision;
  throw new InvalidArgumentError(`${fn}: ${name} is ${x.precision} but this session computes in ${session} (set by its first dense input or its precision option); convert it`);
}
