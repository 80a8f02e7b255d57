// Binding a workload to data: every value gets its concrete shape, size and precision, derived
// inputs are prepared, missing dense inputs generated (seeded), and every operand shape checked,
// so the scheduler prices a DAG whose sizes are all known and the executor cannot meet a
// mismatch half-way through.

import { CsrMatrix } from '../data/csr.js';
import { DenseMatrix, denseElements, type Precision } from '../data/dense.js';
import { describe, InvalidArgumentError } from '../errors.js';
import { denseFeatures } from '../generators/dense.js';
import { Rng, seedToU32 } from '../generators/rng.js';
import { suggest } from '../validate.js';
import { checkWorkload, WORKLOAD_OPERATORS, type Workload, type WorkloadOpKind } from './definition.js';
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

export interface BoundOp {
  readonly index: number;
  readonly id: string;
  readonly kind: WorkloadOpKind;
  /** Value indices of the operands, in operand order. */
  readonly operands: readonly number[];
  readonly output: number;
  readonly split: SplitAxis;
  /** Rows (or sources) a split divides. */
  readonly units: number;
  /** Operand positions read whole by every part of a split (the others are read by row slice). */
  readonly whole: readonly boolean[];
  readonly scale?: number;
  readonly shift?: number;
  readonly reduceOp?: 'sum' | 'max' | 'norm2';
  readonly source?: number;
  readonly sources?: Int32Array;
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

const SPARSE_OPS = new Set<WorkloadOpKind>(['spmm', 'spmv', 'sddmm', 'bfs', 'msbfs']);

/**
 * Bind `workload` to `data`.
 * @throws {InvalidArgumentError} for missing or unknown inputs, wrong shapes, an empty graph, or
 * unknown params, each naming the input or operator.
 * @example
 * const bound = bindWorkload(workload('gcn'), graph, { params: { hidden: 32 } });
 */
export function bindWorkload(workload: Workload, data: WorkloadData, options: BindOptions = {}): BoundWorkload {
  const fn = 'bindWorkload';
  checkWorkload(fn, workload);
  const def = workload.definition;
  for (const key of Object.keys(options ?? {})) {
    if (!['params', 'precision', 'seed'].includes(key)) {
      const hint = suggest(key, ['params', 'precision', 'seed']);
      throw new InvalidArgumentError(`${fn}: unknown option ${JSON.stringify(key)}` + (hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ''));
    }
  }
  const params: Record<string, number> = { ...(def.params ?? {}) };
  for (const [k, v] of Object.entries(options.params ?? {})) {
    if (!Object.hasOwn(params, k)) {
      const hint = suggest(k, Object.keys(params));
      throw new InvalidArgumentError(
        `${fn}: workload ${workload.name} has no param ${JSON.stringify(k)}` + (hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ` (params: ${Object.keys(params).join(', ') || 'none'})`),
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
  const givenSparse = Object.entries(def.inputs).filter(([, d]) => d.kind === 'sparse' && d.from === undefined).map(([n]) => n);
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
        throw new InvalidArgumentError(`${fn}: workload ${workload.name} has no input ${JSON.stringify(name)}` + (hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ` (inputs: ${Object.keys(def.inputs).join(', ')})`));
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
  const bytesOfSparse = (a: CsrMatrix, p: Precision): number => (a.rows + 1) * (a.rowPtr instanceof BigInt64Array ? 8 : 4) + a.nnz * (4 + (p === 'f32' ? 4 : 8));
  const addValue = (v: BoundValue): void => {
    valueIndex.set(v.name, values.length);
    values.push(v);
  };

  // Sparse inputs first (given, then derived), then dense inputs whose shapes may refer to them.
  const inputOrder = [
    ...givenSparse,
    ...Object.entries(def.inputs).filter(([, d]) => d.kind === 'sparse' && d.from !== undefined).map(([n]) => n),
    ...Object.entries(def.inputs).filter(([, d]) => d.kind === 'dense').map(([n]) => n),
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
        if (!(g instanceof CsrMatrix)) throw new InvalidArgumentError(`${fn}: workload ${workload.name} needs a CsrMatrix for input ${name}, got ${describe(g)}`);
        a = g;
      }
      if (a.rows === 0 || a.cols === 0) throw new InvalidArgumentError(`${fn}: input ${name} is empty (${a.rows} x ${a.cols}); ${workload.name} needs at least one vertex or row`);
      if (decl.square && a.rows !== a.cols) throw new InvalidArgumentError(`${fn}: input ${name} must be square (a graph), got ${a.rows} x ${a.cols}`);
      const p: Precision = a.values instanceof Float64Array ? 'f64' : 'f32';
      addValue({ name, kind: 'sparse', rows: a.rows, cols: a.cols, entries: a.nnz, bytes: bytesOfSparse(a, p), precision: p, producer: -1, pattern: a, data: a });
    } else {
      const rows = num(`inputs.${name}.rows`, 'rows');
      const cols = num(`inputs.${name}.cols`, 'cols');
      for (const [what, v] of [['rows', rows], ['cols', cols]] as const) {
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
          throw new InvalidArgumentError(`${fn}: input ${name} is ${x.precision} but the workload is bound at ${precision}; pass { precision: '${x.precision}' } or convert it`);
        }
      } else if (decl.generate === 'random') {
        x = denseFeatures({ rows, cols, precision, seed: `${seed}:${name}` });
      } else if (decl.generate !== undefined) {
        const fill = num(`inputs.${name}.generate.fill`, 'fill');
        x = new DenseMatrix(rows, cols, precision === 'f32' ? new Float32Array(rows * cols).fill(fill) : new Float64Array(rows * cols).fill(fill));
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
    const dims = (x: BoundValue): string => `${x.name} is ${x.rows} x ${x.cols}`;
    const precisionOf = (x: BoundValue): Precision => x.precision;
    let out: Omit<BoundValue, 'name' | 'producer'>;
    let split: SplitAxis = 'rows';
    let units = 0;
    let whole: boolean[] = operands.map(() => false);
    let flops = 0;
    let bytes = 0;
    const extra: { scale?: number; shift?: number; reduceOp?: 'sum' | 'max' | 'norm2'; source?: number; sources?: Int32Array } = {};
    const el = (p: Precision): number => (p === 'f32' ? 4 : 8);
    switch (o.kind) {
      case 'spmm':
      case 'spmv': {
        const [a, x] = v as [BoundValue, BoundValue];
        if (a.cols !== x.rows) shapeError(`${dims(a)} but ${dims(x)}: inner dimensions differ`);
        if (o.kind === 'spmv' && x.cols !== 1) shapeError(`spmv needs a one-column vector, ${dims(x)}`);
        const p = precisionOf(x);
        out = { kind: 'dense', rows: a.rows, cols: x.cols, entries: a.rows * x.cols, bytes: a.rows * x.cols * el(p), precision: p };
        units = a.rows;
        whole = [false, true];
        flops = 2 * a.entries * x.cols;
        bytes = a.bytes + x.bytes + out.bytes;
        break;
      }
      case 'sddmm': {
        const [a, u, w] = v as [BoundValue, BoundValue, BoundValue];
        if (u.rows !== a.rows || w.rows !== a.cols || u.cols !== w.cols) shapeError(`needs U with ${a.rows} rows and V with ${a.cols} rows of equal width; ${dims(u)}, ${dims(w)}`);
        const p = precisionOf(u);
        out = { kind: 'sparse', rows: a.rows, cols: a.cols, entries: a.entries, bytes: bytesOfSparse(a.pattern!, p), precision: p, pattern: a.pattern! };
        units = a.rows;
        whole = [false, false, true];
        flops = 2 * a.entries * u.cols;
        bytes = a.bytes + u.bytes + a.entries * u.cols * el(p) + out.bytes;
        break;
      }
      case 'gemm': {
        const [x, w] = v as [BoundValue, BoundValue];
        if (x.cols !== w.rows) shapeError(`${dims(x)} but ${dims(w)}: inner dimensions differ`);
        const p = precisionOf(x);
        out = { kind: 'dense', rows: x.rows, cols: w.cols, entries: x.rows * w.cols, bytes: x.rows * w.cols * el(p), precision: p };
        units = x.rows;
        whole = [false, true];
        flops = 2 * x.rows * x.cols * w.cols;
        bytes = x.bytes + w.bytes + out.bytes;
        break;
      }
      case 'relu':
      case 'affine':
      case 'add': {
        const x = v[0]!;
        if (o.kind === 'add' && (v[1]!.rows !== x.rows || v[1]!.cols !== x.cols)) shapeError(`operands differ in shape: ${dims(x)}, ${dims(v[1]!)}`);
        out = { kind: 'dense', rows: x.rows, cols: x.cols, entries: x.entries, bytes: x.bytes, precision: x.precision };
        units = x.rows;
        flops = x.entries * (o.kind === 'affine' ? 2 : 1);
        bytes = x.bytes * (o.kind === 'add' ? 3 : 2);
        if (o.kind === 'affine') {
          extra.scale = o.params?.['scale'] === undefined ? 1 : num(`operators[${k}].params.scale`, 'scale');
          extra.shift = o.params?.['shift'] === undefined ? 0 : num(`operators[${k}].params.shift`, 'shift');
        }
        break;
      }
      case 'reduce': {
        const x = v[0]!;
        out = { kind: 'dense', rows: 1, cols: x.cols, entries: x.cols, bytes: x.cols * el(x.precision), precision: x.precision };
        units = x.rows;
        flops = x.entries * 2;
        bytes = x.bytes;
        extra.reduceOp = (o.params?.['op'] as 'sum' | 'max' | 'norm2' | undefined) ?? 'sum';
        break;
      }
      case 'bfs':
      case 'msbfs': {
        const g = v[0]!;
        if (g.rows !== g.cols) shapeError(`${o.kind} needs a square graph, ${dims(g)}`);
        const n = g.rows;
        const a = g.pattern!;
        if (o.kind === 'bfs') {
          const p = o.params?.['source'];
          const s = p === undefined || p === 'max-degree' ? maxDegreeVertex(a) : num(`operators[${k}].params.source`, 'source');
          if (!Number.isInteger(s) || s < 0 || s >= n) shapeError(`source must be a vertex in [0, ${n}), got ${s}`);
          extra.source = s;
          split = 'none';
          out = { kind: 'depths', rows: 1, cols: n, entries: n, bytes: n * 4, precision: 'f32' };
        } else {
          const count = o.params?.['sources'] === undefined ? 32 : num(`operators[${k}].params.sources`, 'sources');
          if (!Number.isInteger(count) || count < 1 || count > n) shapeError(`sources must be an integer in [1, ${n}] (the graph's vertices), got ${count}`);
          extra.sources = pickSources(a, count, seed);
          split = 'sources';
          units = count;
          out = { kind: 'depths', rows: count, cols: n, entries: count * n, bytes: count * n * 4, precision: 'f32' };
        }
        whole = [true];
        flops = 0;
        bytes = g.bytes;
        break;
      }
    }
    if (!WORKLOAD_OPERATORS[o.kind]) shapeError('unknown operator');
    addValue({ name: o.id, producer: ops.length, ...out! });
    ops.push({ index: ops.length, id: o.id, kind: o.kind, operands, output: values.length - 1, split: units > 1 ? split : 'none', units, whole, flops, bytes, ...extra });
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

/** Whether the operator runs as a native sparse kernel priced by the cost model. */
export function isSparseOp(kind: WorkloadOpKind): boolean {
  return SPARSE_OPS.has(kind);
}

function maxDegreeVertex(a: CsrMatrix): number {
  let best = 0;
  let bestDeg = -1;
  for (let i = 0; i < a.rows; i++) {
    const d = Number(a.rowPtr[i + 1]!) - Number(a.rowPtr[i]!);
    if (d > bestDeg) {
      bestDeg = d;
      best = i;
    }
  }
  return best;
}

/** `count` distinct sources, seeded, preferring vertices with out-edges (sorted, for locality). */
function pickSources(a: CsrMatrix, count: number, seed: number): Int32Array {
  const withEdges: number[] = [];
  const without: number[] = [];
  for (let i = 0; i < a.rows; i++) (Number(a.rowPtr[i + 1]!) > Number(a.rowPtr[i]!) ? withEdges : without).push(i);
  const rng = new Rng(seed, 7);
  const pool = [...withEdges];
  const chosen: number[] = [];
  while (chosen.length < count && pool.length) {
    const j = rng.nextInt(pool.length);
    chosen.push(pool[j]!);
    pool[j] = pool[pool.length - 1]!;
    pool.pop();
  }
  for (let i = 0; chosen.length < count; i++) chosen.push(without[i]!);
  return Int32Array.from(chosen.sort((x, y) => x - y));
}
