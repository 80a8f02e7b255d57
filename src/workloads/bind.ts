// Binding a workload to data: every value gets its concrete shape, size and precision, derived
// inputs are prepared, missing dense inputs generated (seeded), and every operand shape checked,
// so the scheduler prices a DAG whose sizes are all known and the executor cannot meet a
// mismatch half-way through.

import { newDenseArray } from '../data/aligned.js';
import { CsrMatrix } from '../data/csr.js';
import { DenseMatrix, denseElements, type Precision } from '../data/dense.js';
import { describe, InvalidArgumentError } from '../errors.js';
import { denseFeatures } from '../generators/dense.js';
import { seedToU32 } from '../generators/rng.js';
import { checkOptions, suggest } from '../validate.js';
import { operatorKind } from '../operators/registry.js';
import type { OpParams } from '../operators/kind.js';
import { bytesOfSparse } from '../operators/shared.js';
import { checkWorkload, type OperatorName, type Workload } from './definition.js';
import { evalExpr, type ExprScope } from './expr.js';
import { TRANSFORMS } from './transforms.js';

/** Data for a workload: its sparse input alone, or inputs by name. */
export type WorkloadData = CsrMatrix | { readonly [name: string]: CsrMatrix | DenseMatrix };

export interface BindOptions {
  /** Overrides of the workload's `params`. */
  readonly params?: Readonly<Record<string, number>>;
  /** Precision of generated and derived data. @default the workload's, else 'f32' */
  readonly precision?: Precision;
  /** Seed of generated inputs and source choices. @default 1 */
  readonly seed?: number;
}

/** A value of the DAG: an input or an operator's output. */
export interface BoundValue {
  readonly name: string;
  readonly kind: 'sparse' | 'dense' | 'depths';
  readonly rows: number;
  readonly cols: number;
  /** Stored entries (sparse) or elements. */
  readonly entries: number;
  readonly bytes: number;
  readonly precision: Precision;
  /** Index of the operator producing it, -1 for an input. */
  readonly producer: number;
  /** The sparse matrix whose pattern this value has (itself for a sparse input). */
  readonly pattern?: CsrMatrix;
  /** The data of an input (given, derived or generated). */
  readonly data?: CsrMatrix | DenseMatrix;
}

/** What an operator divides when it is split across devices. */
export type SplitAxis = 'rows' | 'sources' | 'none';

/** An operator bound to its values, with its parameters resolved (`OpParams`). */
export interface BoundOp extends OpParams {
  readonly index: number;
  readonly id: string;
  readonly kind: OperatorName;
  /** Value indices of the operands, in operand order. */
  readonly operands: readonly number[];
  readonly output: number;
  readonly split: SplitAxis;
  /** Rows (or sources) a split divides. */
  readonly units: number;
  /** Operand positions read whole by every part of a split (the others are read by row slice). */
  readonly whole: readonly boolean[];
  /** Floating-point operations and bytes moved, for operators priced by a roofline. */
  readonly flops: number;
  readonly bytes: number;
}

/** A workload bound to data, in topological order. */
export interface BoundWorkload {
  readonly workload: Workload;
  readonly name: string;
  readonly values: readonly BoundValue[];
  readonly ops: readonly BoundOp[];
  /** Value indices of the workload's outputs. */
  readonly outputs: readonly number[];
  readonly params: Readonly<Record<string, number>>;
  readonly precision: Precision;
}

/**
 * Bind `workload` to `data`.
 * @throws {InvalidArgumentError} for missing or unknown inputs, wrong shapes, an empty graph, or
 * unknown params, each naming the input or operator.
 * @example
 * const bound = bindWorkload(workload('gcn'), graph, { params: { hidden: 32 } });
 */
export function bindWorkload(workload: Workload, data: WorkloadData, options: BindOptions = {}): BoundWorkload {
  return bindAs('bindWorkload', workload, data, options);
}

/** `bindWorkload` on behalf of `fn` (schedule, explore): its errors name the function the caller called. */
export function bindAs(fn: string, workload: Workload, data: WorkloadData, options: BindOptions = {}): BoundWorkload {
  checkWorkload(fn, workload);
  const def = workload.definition;
  checkOptions(fn, options, ['params', 'precision', 'seed']);
  const params: Record<string, number> = { ...(def.params ?? {}) };
  for (const [k, v] of Object.entries(options.params ?? {})) {
    if (!Object.hasOwn(params, k)) {
      const hint = suggest(k, Object.keys(params));
      throw new InvalidArgumentError(
        `${fn}: workload ${workload.name} has no param ${JSON.stringify(k)}` +
          (hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ` (params: ${Object.keys(params).join(', ') || 'none'})`),
      );
    }
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new InvalidArgumentError(`${fn}: param ${k} must be a finite number, got ${describe(v)}`);
    params[k] = v;
  }
  const precision: Precision = options.precision ?? def.precision ?? 'f32';
  if (precision !== 'f32' && precision !== 'f64') throw new InvalidArgumentError(`${fn}: precision must be "f32" or "f64", got ${describe(precision)}`);
  const seed = options.seed ?? 1;
  // Checked here (it is folded into the generated inputs' seeds as text): a Symbol or an object
  // would otherwise throw a TypeError or silently seed from "[object Object]".
  seedToU32(seed, fn);

  // Which data goes to which input.
  const givenSparse = Object.entries(def.inputs)
    .filter(([, d]) => d.kind === 'sparse' && d.from === undefined)
    .map(([n]) => n);
  let given: Record<string, CsrMatrix | DenseMatrix>;
  if (data instanceof CsrMatrix) {
    if (givenSparse.length !== 1) {
      throw new InvalidArgumentError(`${fn}: workload ${workload.name} takes sparse inputs ${givenSparse.join(', ')}; pass them by name, not one CsrMatrix`);
    }
    given = { [givenSparse[0]!]: data };
  } else if (data !== null && typeof data === 'object' && !Array.isArray(data) && !(data instanceof DenseMatrix)) {
    given = { ...data };
    for (const name of Object.keys(given)) {
      if (!Object.hasOwn(def.inputs, name)) {
        const hint = suggest(name, Object.keys(def.inputs));
        throw new InvalidArgumentError(
          `${fn}: workload ${workload.name} has no input ${JSON.stringify(name)}` +
            (hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ` (inputs: ${Object.keys(def.inputs).join(', ')})`),
        );
      }
    }
  } else {
    throw new InvalidArgumentError(`${fn}: data must be a CsrMatrix or an object of named inputs, got ${describe(data)}`);
  }

  const values: BoundValue[] = [];
  const valueIndex = new Map<string, number>();
  const scope: ExprScope = {
    param: (name) => params[name],
    dim: (input, field) => {
      const i = valueIndex.get(input);
      if (i === undefined) return undefined;
      const v = values[i]!;
      return field === 'rows' ? v.rows : field === 'cols' ? v.cols : v.entries;
    },
  };
  const num = (field: string, what: string): number => {
    const e = workload.exprs.get(field);
    if (!e) throw new InvalidArgumentError(`${fn}: ${workload.name}: ${field} is missing`);
    const v = evalExpr(e, scope);
    if (typeof v === 'string') throw new InvalidArgumentError(`${fn}: ${workload.name}: ${field} (${what}): ${v}`);
    return v;
  };
  const addValue = (v: BoundValue): void => {
    valueIndex.set(v.name, values.length);
    values.push(v);
  };

  // Sparse inputs first (given, then derived), then dense inputs whose shapes may refer to them.
  const inputOrder = [
    ...givenSparse,
    ...Object.entries(def.inputs)
      .filter(([, d]) => d.kind === 'sparse' && d.from !== undefined)
      .map(([n]) => n),
    ...Object.entries(def.inputs)
      .filter(([, d]) => d.kind === 'dense')
      .map(([n]) => n),
  ];
  for (const name of inputOrder) {
    const decl = def.inputs[name]!;
    if (decl.kind === 'sparse') {
      let a: CsrMatrix;
      if (decl.from !== undefined) {
        if (given[name] !== undefined) throw new InvalidArgumentError(`${fn}: input ${name} is derived from ${decl.from} (${decl.transform}); do not pass it`);
        const src = values[valueIndex.get(decl.from)!]!.data as CsrMatrix;
        a = derived(src, decl.transform!, precision);
      } else {
        const g = given[name];
        if (!(g instanceof CsrMatrix))
          throw new InvalidArgumentError(`${fn}: workload ${workload.name} needs a CsrMatrix for input ${name}, got ${describe(g)}`);
        a = g;
      }
      if (a.rows === 0 || a.cols === 0)
        throw new InvalidArgumentError(`${fn}: input ${name} is empty (${a.rows} x ${a.cols}); ${workload.name} needs at least one vertex or row`);
      if (decl.square && a.rows !== a.cols) throw new InvalidArgumentError(`${fn}: input ${name} must be square (a graph), got ${a.rows} x ${a.cols}`);
      const p: Precision = a.values instanceof Float64Array ? 'f64' : 'f32';
      addValue({
        name,
        kind: 'sparse',
        rows: a.rows,
        cols: a.cols,
        entries: a.nnz,
        bytes: bytesOfSparse(a, p),
        precision: p,
        producer: -1,
        pattern: a,
        data: a,
      });
    } else {
      const rows = num(`inputs.${name}.rows`, 'rows');
      const cols = num(`inputs.${name}.cols`, 'cols');
      for (const [what, v] of [
        ['rows', rows],
        ['cols', cols],
      ] as const) {
        if (!Number.isInteger(v) || v < 1) throw new InvalidArgumentError(`${fn}: input ${name} needs a positive integer number of ${what}, got ${v}`);
      }
      // Sized (largest index, typed-array limit, memory budget) here, so a param such as k = 1e308
      // is refused in bindWorkload's name before the generator or a fill allocates anything.
      denseElements(`${fn}: input ${name}`, rows, cols);
      let x = given[name];
      if (x !== undefined) {
        if (!(x instanceof DenseMatrix)) throw new InvalidArgumentError(`${fn}: input ${name} must be a DenseMatrix, got ${describe(x)}`);
        if (x.rows !== rows || x.cols !== cols) throw new InvalidArgumentError(`${fn}: input ${name} must be ${rows} x ${cols}, got ${x.rows} x ${x.cols}`);
        if (x.precision !== precision) {
          throw new InvalidArgumentError(
            `${fn}: input ${name} is ${x.precision} but the workload is bound at ${precision}; pass { precision: '${x.precision}' } or convert it`,
          );
        }
      } else if (decl.generate === 'random') {
        x = denseFeatures({ rows, cols, precision, seed: `${seed}:${name}` });
      } else if (decl.generate !== undefined) {
        const fill = num(`inputs.${name}.generate.fill`, 'fill');
        // Finite in double precision can still overflow single (3.4e38 and beyond).
        if (precision === 'f32' && !Number.isFinite(Math.fround(fill))) {
          throw new InvalidArgumentError(`${fn}: input ${name}'s fill ${fill} is outside the range of f32; bind at f64 or scale the fill`);
        }
        x = new DenseMatrix(rows, cols, newDenseArray(precision, rows * cols).fill(fill));
      } else {
        throw new InvalidArgumentError(`${fn}: workload ${workload.name} needs input ${name} (${rows} x ${cols} dense)`);
      }
      const xp = x.precision;
      addValue({ name, kind: 'dense', rows, cols, entries: rows * cols, bytes: rows * cols * (xp === 'f32' ? 4 : 8), precision: xp, producer: -1, data: x });
    }
  }

  const ops: BoundOp[] = [];
  for (const k of workload.order) {
    const o = def.operators[k]!;
    const where = `operator ${o.id} (${o.kind})`;
    const operands = o.inputs.map((n) => valueIndex.get(n)!);
    const v = operands.map((i) => values[i]!);
    const shapeError = (detail: string): never => {
      throw new InvalidArgumentError(`${fn}: ${workload.name}: ${where}: ${detail}`);
    };
    const kind = operatorKind(o.kind, fn);
    const shape = kind.bind({
      operands: v,
      params: o.params ?? {},
      num: (name) => (o.params?.[name] === undefined ? undefined : num(`operators[${k}].params.${name}`, name)),
      seed,
      fail: shapeError,
    });
    const { output: out, units, split, whole, flops, bytes } = shape;
    addValue({ name: o.id, producer: ops.length, ...out });
    ops.push({
      index: ops.length,
      id: o.id,
      kind: o.kind,
      operands,
      output: values.length - 1,
      split: units > 1 ? split : 'none',
      units,
      whole: [...whole],
      flops,
      bytes,
      ...shape.params,
    });
  }
  return {
    workload,
    name: workload.name,
    values,
    ops,
    outputs: def.outputs.map((id) => valueIndex.get(id)!),
    params,
    precision,
  };
}

/**
 * Derived inputs, remembered per source matrix: transforms are pure, and reusing the same
 * object keeps the cost model's per-matrix feature cache warm when a graph is planned again.
 */
const DERIVED = new WeakMap<CsrMatrix, Map<string, CsrMatrix>>();

function derived(src: CsrMatrix, transform: string, precision: Precision): CsrMatrix {
  let m = DERIVED.get(src);
  if (!m) {
    m = new Map();
    DERIVED.set(src, m);
  }
  const key = `${transform}/${precision}`;
  let a = m.get(key);
  if (!a) {
    a = TRANSFORMS.get(transform)!.apply(src, precision);
    m.set(key, a);
  }
  return a;
}
