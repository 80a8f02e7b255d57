// The registry record of a user-defined operator: its shape rule, reference and per-device code
// wrapped so that whatever the user's code does (throw, return the wrong shape or precision,
// price itself at NaN) becomes an OperatorError naming the operator, at the call, the piece or
// the handle, never a crash or a silently wrong join.

import { CsrMatrix } from '../data/csr.js';
import { DenseMatrix, type Precision } from '../data/dense.js';
import type { Device, RowRange } from '../devices/device.js';
import { describe, OperatorError, UnsupportedError } from '../errors.js';
import type { BoundOp } from '../workloads/bind.js';
import type { OperatorKind, Value, ValueShape } from './kind.js';
import { elementBytes } from './shared.js';
import type { UserOperand, UserOperatorSpec } from './define.js';

/** The work a roofline prices a user operator by. */
export interface UserCostTerms {
  readonly flops: number;
  readonly bytes: number;
}

/** The output's precision: the first dense operand's, else the first operand's. */
function outputPrecision(s: readonly ValueShape[]): Precision {
  return (s.find((x) => x.kind === 'dense') ?? s[0]!).precision;
}

/** The output shape from the user's rule, checked: positive integer sizes. */
function userShape(spec: UserOperatorSpec, s: readonly ValueShape[], params: Readonly<Record<string, number>>, fail: (detail: string) => never): ValueShape {
  let out: { rows: number; cols: number };
  try {
    out = spec.output(s, params);
  } catch (e) {
    // The rule refusing its operands is the user's shape check: the caller's error, with its words.
    return fail(e instanceof Error ? e.message : String(e));
  }
  const ok = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v >= 0;
  if (out === null || typeof out !== 'object' || !ok(out.rows) || !ok(out.cols)) {
    throw new OperatorError(spec.name, `${spec.name}.output: must return { rows, cols } of non-negative integers, got ${describe(out)}`);
  }
  const shape: ValueShape = { kind: 'dense', rows: out.rows, cols: out.cols, precision: outputPrecision(s) };
  if ((spec.split ?? 'rows') === 'rows' && s[0]!.kind === 'sparse' && s[0]!.rows !== shape.rows) {
    fail(`${spec.name} splits by rows, so its output needs the sparse operand's ${s[0]!.rows} rows, got ${shape.rows}`);
  }
  return shape;
}

/** The roofline's work: the user's cost terms, checked, or one flop per output element and every byte once. */
function costTerms(spec: UserOperatorSpec, operands: readonly ValueShape[], output: ValueShape, bytesIn: number): UserCostTerms {
  const outBytes = output.rows * output.cols * elementBytes(output.precision);
  if (!spec.cost) return { flops: output.rows * output.cols, bytes: bytesIn + outBytes };
  let c: UserCostTerms;
  try {
    c = spec.cost({ operands, output });
  } catch (e) {
    throw new OperatorError(spec.name, `${spec.name}.cost: threw: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  for (const key of ['flops', 'bytes'] as const) {
    const v = (c as Partial<UserCostTerms> | null)?.[key];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
      throw new OperatorError(spec.name, `${spec.name}.cost: ${key} must be a finite non-negative number, got ${describe(v)}`);
    }
  }
  return c;
}

/** Bytes of an operand as the roofline reads it (shape-only estimate for sparse handles). */
function shapeBytes(s: ValueShape): number {
  return s.rows * s.cols * elementBytes(s.precision);
}

/** `got` must be a DenseMatrix of `rows` x `cols` at `precision`; else an OperatorError naming `where`. */
function checkOutput(spec: UserOperatorSpec, where: string, got: unknown, rows: number, cols: number, precision: Precision, range?: RowRange): DenseMatrix {
  if (got instanceof DenseMatrix && got.rows === rows && got.cols === cols && got.precision === precision) return got;
  const what = got instanceof DenseMatrix ? `a ${got.rows} x ${got.cols} ${got.precision} DenseMatrix` : describe(got);
  const of = range ? ` for rows [${range[0]}, ${range[1]})` : '';
  throw new OperatorError(spec.name, `${where}: returned ${what}${of}; must be a ${rows} x ${cols} ${precision} DenseMatrix`);
}

async function callUser<T>(spec: UserOperatorSpec, where: string, body: () => T | Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (e) {
    if (e instanceof OperatorError) throw e;
    throw new OperatorError(spec.name, `${where}: threw: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}

/** The spec's calibration inputs, checked: a non-empty array of operand lists of its input kinds. */
function calibrationInputs(spec: UserOperatorSpec, quick: boolean): UserOperand[][] {
  const where = `${spec.name}.calibration`;
  let lists: unknown;
  try {
    lists = spec.calibration!(quick);
  } catch (e) {
    throw new OperatorError(spec.name, `${where}: threw: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  if (!Array.isArray(lists) || lists.length === 0)
    throw new OperatorError(spec.name, `${where}: must return a non-empty array of operand lists, got ${describe(lists)}`);
  return lists.map((list: unknown, k) => {
    const ok =
      Array.isArray(list) &&
      list.length === spec.inputs.length &&
      list.every((x, i) => (spec.inputs[i] === 'sparse' ? x instanceof CsrMatrix : x instanceof DenseMatrix));
    if (!ok)
      throw new OperatorError(spec.name, `${where}: list ${k} must hold ${spec.inputs.length} operands (${spec.inputs.join(', ')}), got ${describe(list)}`);
    return list as UserOperand[];
  });
}

const operandsOf = (x: readonly Value[]): UserOperand[] =>
  x.map((v) => {
    if (v instanceof CsrMatrix || v instanceof DenseMatrix) return v;
    throw new UnsupportedError(`user operators take matrices, got ${describe(v)}`);
  });

/** The registry record of a checked user spec. */
export function userKind(spec: UserOperatorSpec): OperatorKind {
  const split = spec.split ?? 'rows';
  const paramsOf = (op: BoundOp): Readonly<Record<string, number>> => op.userParams ?? {};
  return {
    name: spec.name,
    description: spec.description ?? `user-defined operator ${spec.name}`,
    operands: spec.inputs,
    params: spec.params ?? [],
    output: 'dense',
    builtin: false,
    splittable: split === 'rows',
    bind(ctx) {
      const params: Record<string, number> = {};
      for (const p of spec.params ?? []) {
        const v = ctx.num(p);
        if (v !== undefined) params[p] = v;
      }
      const shapes = ctx.operands.map((v) => ({ kind: v.kind, rows: v.rows, cols: v.cols, precision: v.precision }));
      const out = userShape(spec, shapes, params, ctx.fail);
      const terms = costTerms(
        spec,
        shapes,
        out,
        ctx.operands.reduce((s, v) => s + v.bytes, 0),
      );
      const entries = out.rows * out.cols;
      return {
        output: { kind: 'dense', rows: out.rows, cols: out.cols, entries, bytes: entries * elementBytes(out.precision), precision: out.precision },
        units: out.rows,
        split: split === 'rows' ? 'rows' : 'none',
        whole: ctx.operands.map((v, i) => !(i === 0 && split === 'rows' && v.rows === out.rows)),
        flops: terms.flops,
        bytes: terms.bytes,
        params: { userParams: params },
      };
    },
    shape(_names, s, params, fail) {
      const numeric = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, Number(v)]));
      const out = userShape(spec, s, numeric, fail);
      costTerms(
        spec,
        s,
        out,
        s.reduce((a, x) => a + shapeBytes(x), 0),
      );
      return out;
    },
    reference(op, x) {
      // Synchronous by contract (the reference evaluator is): a Promise is a wrong output, reported as such.
      let r: unknown;
      try {
        r = spec.reference(operandsOf(x), paramsOf(op));
      } catch (e) {
        throw new OperatorError(spec.name, `${spec.name}.reference: threw: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
      }
      const out = outShape(op, x);
      return checkOutput(spec, `${spec.name}.reference`, r, out.rows, out.cols, out.precision);
    },
    execution: {
      on: 'host',
      async compute(op, x, range, device?: Device) {
        const key = device?.backend ?? 'cpu';
        const impl = spec.devices[key as keyof typeof spec.devices];
        if (!impl) throw new UnsupportedError(`${spec.name}: has no implementation for ${key} (it has ${Object.keys(spec.devices).join(', ')})`);
        const where = `${spec.name}.devices.${key}`;
        const out = outShape(op, x);
        const r = await callUser(spec, where, () => impl(operandsOf(x), range, paramsOf(op), out));
        return checkOutput(spec, where, r, range[1] - range[0], out.cols, out.precision, range);
      },
    },
    runsOn: (device) => Object.hasOwn(spec.devices, device.backend),
    ...(spec.calibration ? { calibration: (quick: boolean) => calibrationInputs(spec, quick) } : {}),
  };

  /** The full output's shape, from the operands' values (the rule is pure). */
  function outShape(op: BoundOp, x: readonly Value[]): ValueShape {
    const shapes = operandsOf(x).map(
      (v): ValueShape =>
        v instanceof DenseMatrix
          ? { kind: 'dense', rows: v.rows, cols: v.cols, precision: v.precision }
          : { kind: 'sparse', rows: v.rows, cols: v.cols, precision: v.values instanceof Float64Array ? 'f64' : 'f32' },
    );
    return userShape(spec, shapes, paramsOf(op), (d) => {
      throw new OperatorError(spec.name, `${spec.name}.output: ${d}`);
    });
  }
}
