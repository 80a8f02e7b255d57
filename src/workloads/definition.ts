// What a workload is: a DAG of operators over named inputs, as data. `defineWorkload` validates a
// plain object (parsed JSON or a builder's output) before anything is bound to real data, so a
// wrong file is refused with the field that is wrong, not half-way through a run.

import { describe, FormatError, InvalidArgumentError } from '../errors.js';
import { suggest } from '../validate.js';
import { type Expr, exprRefs, parseExpr } from './expr.js';
import { BUILTIN_OPERATORS } from '../operators/builtins.js';
import { hasOperator, operatorKind, operatorKinds } from '../operators/registry.js';

/** The operator kinds shipped with dype. */
export type WorkloadOpKind = 'spmm' | 'spmv' | 'sddmm' | 'gemm' | 'relu' | 'affine' | 'add' | 'reduce' | 'bfs' | 'msbfs';

/** An operator kind's name: a built-in, or one registered by defineOperator. */
export type OperatorName = WorkloadOpKind | (string & {});

interface KindInfo {
  /** Operands, in order: `sparse` a sparse matrix, `dense` a dense matrix. */
  readonly operands: readonly ('sparse' | 'dense')[];
  /** Parameters the operator accepts. */
  readonly params: readonly string[];
  readonly description: string;
}

/** Every built-in operator kind with its operands and parameters (a view of the operator registry's built-ins). */
export const WORKLOAD_OPERATORS: Readonly<Record<WorkloadOpKind, KindInfo>> & Readonly<Partial<Record<string, KindInfo>>> = Object.fromEntries(
  BUILTIN_OPERATORS.map((k) => [k.name, { operands: k.operands, params: k.params, description: k.description }]),
) as Record<WorkloadOpKind, KindInfo>;

/** Graph preparations an input may declare (`"transform"`). */
export const TRANSFORM_NAMES = ['gcn-normalise', 'mean-aggregator', 'pagerank-matrix', 'transpose'] as const;
export type TransformName = (typeof TRANSFORM_NAMES)[number];

export type InputDefinition =
  | {
      readonly kind: 'sparse';
      readonly description?: string;
      /** Must be square (an adjacency matrix). */
      readonly square?: boolean;
      /** Derived from another sparse input by a transform, at bind time. */
      readonly from?: string;
      readonly transform?: TransformName;
    }
  | {
      readonly kind: 'dense';
      readonly description?: string;
      readonly rows: number | string;
      readonly cols: number | string;
      /** How to make it when the data does not supply it: seeded random values, or a constant. */
      readonly generate?: 'random' | { readonly fill: number | string };
    };

export interface OperatorDefinition {
  readonly id: string;
  readonly kind: OperatorName;
  /** Names of workload inputs or of earlier operators' outputs, in operand order. */
  readonly inputs: readonly string[];
  readonly params?: Readonly<Record<string, number | string>>;
}

/** A workload as written in a file: JSON-compatible data. */
export interface WorkloadDefinition {
  readonly name: string;
  readonly description?: string;
  /** Default precision of generated and derived data. @default 'f32' */
  readonly precision?: 'f32' | 'f64';
  /** Named numbers (`$name` in expressions), overridable when binding. */
  readonly params?: Readonly<Record<string, number>>;
  readonly inputs: Readonly<Record<string, InputDefinition>>;
  readonly operators: readonly OperatorDefinition[];
  /** Values the workload produces (operator ids). */
  readonly outputs: readonly string[];
}

/** A validated definition with its expressions parsed and its operators in dependency order. */
export interface Workload {
  readonly definition: WorkloadDefinition;
  readonly name: string;
  /** Operator indices into `definition.operators` in a topological order. */
  readonly order: readonly number[];
  readonly exprs: ReadonlyMap<string, Expr>;
  /** True for the stream form: a sequence of inputs judged by throughput. */
  readonly stream: boolean;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const TOP_KEYS = ['name', 'description', 'precision', 'params', 'inputs', 'operators', 'outputs'];

/**
 * Validate a workload definition (parsed JSON or a builder's output).
 * @param where names the source in error messages (a path, or `<object>`).
 * @throws {FormatError} naming the field that is wrong.
 * @example
 * const w = defineWorkload({ name: 'one-spmm', inputs: { A: { kind: 'sparse' }, X: { kind: 'dense', rows: 'A.cols', cols: 16, generate: 'random' } },
 *   operators: [{ id: 'y', kind: 'spmm', inputs: ['A', 'X'] }], outputs: ['y'] });
 */
export function defineWorkload(raw: unknown, where = '<object>'): Workload {
  const fn = 'defineWorkload';
  const bad = (field: string, detail: string): never => {
    throw new FormatError(fn, where, 0, `${field}: ${detail}`);
  };
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) bad('workload', `must be an object, got ${describe(raw)}`);
  const d = raw as Record<string, unknown>;
  for (const key of Object.keys(d)) {
    if (!TOP_KEYS.includes(key)) {
      const hint = suggest(key, TOP_KEYS);
      bad(key, `unknown field${hint ? ` (did you mean "${hint}"?)` : ` (fields: ${TOP_KEYS.join(', ')})`}`);
    }
  }
  if (typeof d['name'] !== 'string' || !/^[A-Za-z0-9_.:-]+$/.test(d['name']))
    bad('name', `must be a word (letters, digits, _ . : -), got ${describe(d['name'])}`);
  if (d['description'] !== undefined && typeof d['description'] !== 'string') bad('description', `must be a string, got ${describe(d['description'])}`);
  if (d['precision'] !== undefined && d['precision'] !== 'f32' && d['precision'] !== 'f64')
    bad('precision', `must be "f32" or "f64", got ${describe(d['precision'])}`);

  const params = (d['params'] === undefined ? {} : d['params']) as Record<string, unknown>;
  if (params === null || typeof params !== 'object' || Array.isArray(params)) bad('params', `must be an object of numbers, got ${describe(d['params'])}`);
  for (const [k, v] of Object.entries(params)) {
    if (!NAME.test(k)) bad(`params.${k}`, 'names must be identifiers');
    if (typeof v !== 'number' || !Number.isFinite(v)) bad(`params.${k}`, `must be a finite number, got ${describe(v)}`);
  }

  const exprs = new Map<string, Expr>();
  // Names an expression may use are checked where it stands, so the error names its field.
  const expr = (field: string, source: unknown): void => {
    const e = parseExpr(source);
    if (typeof e === 'string') bad(field, e);
    exprs.set(field, e as Expr);
    const refs = { params: new Set<string>(), inputs: new Set<string>() };
    exprRefs(e as Expr, refs);
    const inputNames = Object.keys(d['inputs'] as object);
    for (const name of refs.inputs) {
      if (!inputNames.includes(name)) {
        const hint = suggest(name, inputNames);
        bad(field, `refers to ${name}.*, which is not an input` + (hint ? ` (did you mean "${hint}"?)` : ''));
      }
    }
    for (const name of refs.params) {
      if (!Object.hasOwn(params, name)) {
        const hint = suggest(name, Object.keys(params));
        bad(field, `refers to $${name}, which is not in "params"` + (hint ? ` (did you mean "$${hint}"?)` : ''));
      }
    }
  };

  const inputs = d['inputs'] as Record<string, unknown>;
  if (inputs === null || typeof inputs !== 'object' || Array.isArray(inputs) || Object.keys(inputs).length === 0) {
    bad('inputs', `must be a non-empty object of input declarations, got ${describe(d['inputs'])}`);
  }
  const inputNames = Object.keys(inputs);
  const sparseInputs = new Set<string>();
  for (const [name, rawInput] of Object.entries(inputs)) {
    const f = `inputs.${name}`;
    if (!NAME.test(name)) bad(f, 'input names must be identifiers');
    if (rawInput === null || typeof rawInput !== 'object') bad(f, `must be an object, got ${describe(rawInput)}`);
    const i = rawInput as Record<string, unknown>;
    if (i['kind'] === 'sparse') {
      checkKeys(bad, f, i, ['kind', 'description', 'square', 'from', 'transform']);
      if (i['square'] !== undefined && typeof i['square'] !== 'boolean') bad(`${f}.square`, `must be true or false, got ${describe(i['square'])}`);
      if ((i['from'] === undefined) !== (i['transform'] === undefined)) bad(f, '"from" and "transform" go together');
      if (i['transform'] !== undefined && !(TRANSFORM_NAMES as readonly string[]).includes(i['transform'] as string)) {
        const hint = typeof i['transform'] === 'string' ? suggest(i['transform'], TRANSFORM_NAMES) : undefined;
        bad(
          `${f}.transform`,
          `${describe(i['transform'])} is not a transform` + (hint ? ` (did you mean "${hint}"?)` : ` (transforms: ${TRANSFORM_NAMES.join(', ')})`),
        );
      }
      sparseInputs.add(name);
    } else if (i['kind'] === 'dense') {
      checkKeys(bad, f, i, ['kind', 'description', 'rows', 'cols', 'generate']);
      expr(`${f}.rows`, i['rows']);
      expr(`${f}.cols`, i['cols']);
      const g = i['generate'];
      if (g !== undefined && g !== 'random') {
        if (g === null || typeof g !== 'object' || Object.keys(g).join() !== 'fill')
          bad(`${f}.generate`, `must be "random" or { "fill": <expression> }, got ${describe(g)}`);
        expr(`${f}.generate.fill`, (g as { fill: unknown }).fill);
      }
    } else {
      bad(`${f}.kind`, `must be "sparse" or "dense", got ${describe(i['kind'])}`);
    }
  }
  for (const name of sparseInputs) {
    const from = (inputs[name] as { from?: unknown }).from;
    if (from === undefined) continue;
    if (typeof from !== 'string' || !sparseInputs.has(from) || (inputs[from] as { from?: unknown }).from !== undefined) {
      bad(`inputs.${name}.from`, `must name a sparse input given by the data (not itself derived), got ${describe(from)}`);
    }
  }

  const ops = d['operators'];
  if (!Array.isArray(ops) || ops.length === 0) bad('operators', `must be a non-empty array, got ${describe(ops)}`);
  const opIndex = new Map<string, number>();
  const deps: number[][] = [];
  (ops as unknown[]).forEach((rawOp, k) => {
    const f = `operators[${k}]`;
    if (rawOp === null || typeof rawOp !== 'object' || Array.isArray(rawOp)) bad(f, `must be an object, got ${describe(rawOp)}`);
    const o = rawOp as Record<string, unknown>;
    checkKeys(bad, f, o, ['id', 'kind', 'inputs', 'params']);
    if (typeof o['id'] !== 'string' || !NAME.test(o['id'])) bad(`${f}.id`, `must be an identifier, got ${describe(o['id'])}`);
    const id = o['id'] as string;
    if (opIndex.has(id) || inputNames.includes(id)) bad(`${f}.id`, `${JSON.stringify(id)} is already used`);
    opIndex.set(id, k);
    if (typeof o['kind'] !== 'string' || !hasOperator(o['kind'])) {
      const kinds = operatorKinds().map((x) => x.name);
      const hint = typeof o['kind'] === 'string' ? suggest(o['kind'], kinds) : undefined;
      bad(`${f}.kind`, `${describe(o['kind'])} is not an operator` + (hint ? ` (did you mean "${hint}"?)` : ` (operators: ${kinds.join(', ')})`));
    }
    const info = operatorKind(o['kind'] as string);
    const operands = o['inputs'];
    if (!Array.isArray(operands) || operands.length !== info.operands.length || operands.some((x) => typeof x !== 'string')) {
      bad(`${f}.inputs`, `${o['kind'] as string} takes ${info.operands.length} operand name(s) (${info.operands.join(', ')}), got ${JSON.stringify(operands)}`);
    }
    const p = (o['params'] === undefined ? {} : o['params']) as Record<string, unknown>;
    if (p === null || typeof p !== 'object' || Array.isArray(p)) bad(`${f}.params`, `must be an object, got ${describe(o['params'])}`);
    for (const [pk, pv] of Object.entries(p)) {
      if (!info.params.includes(pk)) {
        const hint = suggest(pk, info.params);
        bad(
          `${f}.params.${pk}`,
          `${o['kind'] as string} has no parameter ${JSON.stringify(pk)}` +
            (hint ? ` (did you mean "${hint}"?)` : info.params.length ? ` (parameters: ${info.params.join(', ')})` : ''),
        );
      }
      // A word the kind takes literally (reduce's op, bfs's max-degree source), else an expression.
      const literal = info.literalParam?.(pk, pv);
      if (typeof literal === 'string') bad(`${f}.params.${pk}`, `${literal}, got ${describe(pv)}`);
      if (literal === undefined) expr(`${f}.params.${pk}`, pv);
    }
    deps.push([]);
  });
  // Operands: an input or another operator; the kinds must match.
  const kindOf = (name: string): 'sparse' | 'dense' | 'depths' | undefined => {
    if (sparseInputs.has(name)) return 'sparse';
    if (inputNames.includes(name)) return 'dense';
    const k = opIndex.get(name);
    if (k === undefined) return undefined;
    return operatorKind((ops as OperatorDefinition[])[k]!.kind).output;
  };
  (ops as OperatorDefinition[]).forEach((o, k) => {
    const info = operatorKind(o.kind);
    o.inputs.forEach((name, j) => {
      const f = `operators[${k}].inputs[${j}]`;
      const kind = kindOf(name);
      if (kind === undefined) {
        const hint = suggest(name, [...inputNames, ...opIndex.keys()]);
        bad(f, `${JSON.stringify(name)} is neither an input nor an operator` + (hint ? ` (did you mean "${hint}"?)` : ''));
      }
      if (kind !== info.operands[j]) bad(f, `${o.kind} needs a ${info.operands[j]} operand here, ${JSON.stringify(name)} is ${kind}`);
      const dep = opIndex.get(name);
      if (dep !== undefined) deps[k]!.push(dep);
    });
  });
  const order = topologicalOrder(deps);
  if (typeof order === 'number') bad(`operators[${order}]`, `${JSON.stringify((ops as OperatorDefinition[])[order]!.id)} depends on itself through a cycle`);

  const outputs = d['outputs'];
  if (!Array.isArray(outputs) || outputs.length === 0) bad('outputs', `must be a non-empty array of operator ids, got ${describe(outputs)}`);
  (outputs as unknown[]).forEach((o, k) => {
    if (typeof o !== 'string' || !opIndex.has(o)) {
      const hint = typeof o === 'string' ? suggest(o, [...opIndex.keys()]) : undefined;
      bad(`outputs[${k}]`, `${describe(o)} is not an operator id` + (hint ? ` (did you mean "${hint}"?)` : ''));
    }
  });
  return { definition: raw as WorkloadDefinition, name: d['name'] as string, order: order as number[], exprs, stream: false };
}

/**
 * `value` as a Workload (from defineWorkload, workload() or loadWorkload): an InvalidArgumentError
 * naming `fn` otherwise.
 * @internal
 */
export function checkWorkload(fn: string, value: unknown): Workload {
  const w = value as Partial<Workload> | null;
  if (
    w === null ||
    typeof w !== 'object' ||
    typeof w.name !== 'string' ||
    !Array.isArray(w.order) ||
    !(w.exprs instanceof Map) ||
    w.definition === null ||
    typeof w.definition !== 'object'
  ) {
    throw new InvalidArgumentError(`${fn}: workload must be a Workload (from defineWorkload, workload or loadWorkload), got ${describe(value)}`);
  }
  return value as Workload;
}

/**
 * The stream form of a workload: the same DAG applied to a sequence of inputs, planned for
 * throughput (operators become pipeline stages on different devices).
 */
export function streamOf(workload: Workload): Workload {
  checkWorkload('streamOf', workload);
  return { ...workload, stream: true };
}

function checkKeys(bad: (f: string, d: string) => never, field: string, o: Record<string, unknown>, allowed: readonly string[]): void {
  for (const key of Object.keys(o)) {
    if (!allowed.includes(key)) {
      const hint = suggest(key, allowed);
      bad(`${field}.${key}`, `unknown field${hint ? ` (did you mean "${hint}"?)` : ` (fields: ${allowed.join(', ')})`}`);
    }
  }
}

/** Kahn's algorithm, stable (ties in definition order). Returns an operator on a cycle when there is one. */
function topologicalOrder(deps: readonly number[][]): number[] | number {
  const n = deps.length;
  const indegree = deps.map((d) => new Set(d).size);
  const users: number[][] = deps.map(() => []);
  deps.forEach((d, k) => new Set(d).forEach((j) => users[j]!.push(k)));
  const ready = indegree.flatMap((x, k) => (x === 0 ? [k] : []));
  const order: number[] = [];
  while (ready.length) {
    ready.sort((a, b) => a - b);
    const k = ready.shift()!;
    order.push(k);
    for (const u of users[k]!) if (--indegree[u]! === 0) ready.push(u);
  }
  return order.length === n ? order : indegree.findIndex((x) => x > 0);
}
