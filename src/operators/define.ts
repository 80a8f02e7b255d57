// defineOperator: a user's own operator kind, registered next to the built-ins. The spec is
// checked whole before it is registered (name, operands, code per device), so a bad spec is
// refused at definition, and a registered kind is planned, run and checked like a built-in.

import type { CsrMatrix } from '../data/csr.js';
import type { DenseMatrix } from '../data/dense.js';
import type { RowRange } from '../devices/device.js';
import { describe, InvalidArgumentError } from '../errors.js';
import { suggest } from '../validate.js';
import type { OperatorKind, ValueShape } from './kind.js';
import { operatorKind, hasOperator, registerKind, unregisterKind } from './registry.js';
import { type UserCostTerms, userKind } from './user-kind.js';

/** An operand a user operator's code receives. */
export type UserOperand = CsrMatrix | DenseMatrix;

/**
 * Code for output rows `rows` (`[begin, end)`) of a user operator: returns a DenseMatrix of
 * `end - begin` rows, computed exactly as the whole call would compute those rows. `output` is
 * the whole output's shape (its columns and precision), as the operator's rule gave it.
 */
export type UserImplementation = (
  operands: readonly UserOperand[],
  rows: RowRange,
  params: Readonly<Record<string, number>>,
  output: ValueShape,
) => DenseMatrix | Promise<DenseMatrix>;

/** Devices a user operator may bring code for: those whose work runs on the host (the CPU, the simulators). */
export const USER_OPERATOR_DEVICES = ['cpu', 'gpu-sim', 'cgra-sim'] as const;
export type UserOperatorDevice = (typeof USER_OPERATOR_DEVICES)[number];

export interface UserOperatorSpec {
  /** The kind's name in workloads (`op(id, name, ...)`) and sessions (`s.call(name, ...)`). */
  readonly name: string;
  readonly description?: string;
  /** Operand kinds, in order. */
  readonly inputs: readonly ('sparse' | 'dense')[];
  /** Names of numeric parameters (expressions in a workload). @default [] */
  readonly params?: readonly string[];
  /** The dense output's shape from the operands' shapes; throw to refuse the operands. */
  readonly output: (operands: readonly ValueShape[], params: Readonly<Record<string, number>>) => { rows: number; cols: number };
  /** The whole output by plain code: the yardstick every device's code is checked against. */
  readonly reference: (operands: readonly UserOperand[], params: Readonly<Record<string, number>>) => DenseMatrix;
  /** Code per device backend; the planner offers only these devices. */
  readonly devices: Readonly<Partial<Record<UserOperatorDevice, UserImplementation>>>;
  /**
   * Work for the roofline that prices it where it is not probed (the simulators; the CPU when
   * probes are off). @default one flop per output element, every operand and output byte once
   */
  readonly cost?: (shapes: { readonly operands: readonly ValueShape[]; readonly output: ValueShape }) => UserCostTerms;
  /** `rows`: split across devices by output rows; `none`: always whole. @default 'rows' */
  readonly split?: 'rows' | 'none';
  /**
   * Operand lists of growing size that `dype calibrate --op` times the CPU code on (fewer, smaller
   * ones when `quick`). @default power-law graphs of 2^9 to 2^14 vertices for sparse operands,
   * 16 columns of features with the graph's rows for dense ones (the output rule must accept them)
   */
  readonly calibration?: (quick: boolean) => readonly (readonly UserOperand[])[];
}

const NAME = /^[a-z][a-z0-9_-]*$/;
const SPEC_KEYS = ['name', 'description', 'inputs', 'params', 'output', 'reference', 'devices', 'cost', 'split', 'calibration'];

/**
 * Register a user-defined operator kind. Its code runs on the host: timed on the CPU (and probed
 * there by the planner), priced by each simulator's roofline over its cost terms.
 * @throws {InvalidArgumentError} for a bad spec: a name taken (by a built-in or an earlier
 *   definition), unknown fields or device keys, missing code.
 * @example
 * defineOperator({ name: 'scale-rows', inputs: ['dense'], output: ([x]) => ({ rows: x!.rows, cols: x!.cols }),
 *   reference: ([x]) => twice(x), devices: { cpu: ([x], [b, e]) => twice(x, b, e) } });
 */
export function defineOperator(spec: UserOperatorSpec): OperatorKind {
  const fn = 'defineOperator';
  const bad = (detail: string): never => {
    throw new InvalidArgumentError(`${fn}: ${detail}`);
  };
  if (spec === null || typeof spec !== 'object') bad(`spec must be an object, got ${describe(spec)}`);
  for (const key of Object.keys(spec)) {
    if (!SPEC_KEYS.includes(key)) {
      const hint = suggest(key, SPEC_KEYS);
      bad(`unknown field ${JSON.stringify(key)}` + (hint ? ` (did you mean "${hint}"?)` : ` (fields: ${SPEC_KEYS.join(', ')})`));
    }
  }
  const name = spec.name;
  if (typeof name !== 'string' || !NAME.test(name)) bad(`name must be lower-case letters, digits, - and _ (starting with a letter), got ${describe(name)}`);
  if (hasOperator(name)) {
    bad(
      operatorKind(name).builtin
        ? `${JSON.stringify(name)} is a built-in operator; choose another name`
        : `${JSON.stringify(name)} is already defined (undefineOperator it first)`,
    );
  }
  if (!Array.isArray(spec.inputs) || spec.inputs.length === 0 || spec.inputs.some((k) => k !== 'sparse' && k !== 'dense')) {
    bad(`${name}: inputs must be a non-empty array of "sparse" and "dense", got ${describe(spec.inputs)}`);
  }
  const params = spec.params ?? [];
  if (!Array.isArray(params) || params.some((p) => typeof p !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(p)))
    bad(`${name}: params must be an array of identifiers, got ${describe(spec.params)}`);
  for (const key of ['output', 'reference'] as const) {
    if (typeof spec[key] !== 'function') bad(`${name}: ${key} must be a function, got ${describe(spec[key])}`);
  }
  for (const key of ['cost', 'calibration'] as const) {
    if (spec[key] !== undefined && typeof spec[key] !== 'function') bad(`${name}: ${key} must be a function, got ${describe(spec[key])}`);
  }
  if (spec.split !== undefined && spec.split !== 'rows' && spec.split !== 'none') bad(`${name}: split must be "rows" or "none", got ${describe(spec.split)}`);
  const devices = spec.devices as Record<string, unknown> | null;
  if (devices === null || typeof devices !== 'object' || Object.keys(devices).length === 0)
    bad(`${name}: devices must give code for at least one of ${USER_OPERATOR_DEVICES.join(', ')}, got ${describe(devices)}`);
  for (const [key, impl] of Object.entries(devices!)) {
    if (!(USER_OPERATOR_DEVICES as readonly string[]).includes(key)) {
      const hint = suggest(key, USER_OPERATOR_DEVICES);
      const why = key === 'gpu' ? ' (a CUDA GPU runs only its own kernels; user code runs on the host)' : hint ? ` (did you mean "${hint}"?)` : '';
      bad(`${name}: devices.${key}: not a device user code can run on${why}; devices: ${USER_OPERATOR_DEVICES.join(', ')}`);
    }
    if (typeof impl !== 'function') bad(`${name}: devices.${key} must be a function, got ${describe(impl)}`);
  }
  const kind = userKind({ ...spec, params });
  registerKind(kind);
  return kind;
}

/**
 * Remove a user-defined operator kind (built-ins stay).
 * @returns whether it was registered.
 * @example
 * undefineOperator('scale-rows');
 */
export function undefineOperator(name: string): boolean {
  return unregisterKind(name);
}
