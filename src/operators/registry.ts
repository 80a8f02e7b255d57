// The operator registry: every kind dype can plan and run, built-in or user-defined, by name.
// Built-ins are registered when this module loads; defineOperator adds user kinds to the same
// table, so the binder, planner and executor meet both the same way.

import { describe, InvalidArgumentError } from '../errors.js';
import { suggest } from '../validate.js';
import type { OperatorKind } from './kind.js';
import { BUILTIN_OPERATORS } from './builtins.js';

const KINDS = new Map<string, OperatorKind>(BUILTIN_OPERATORS.map((k) => [k.name, k]));

/** Whether `name` is a registered operator kind. */
export function hasOperator(name: string): boolean {
  return KINDS.has(name);
}

/**
 * The record of operator kind `name`.
 * @throws {InvalidArgumentError} naming `fn` for a kind that is not registered (with the closest one).
 * @example
 * const spmm = operatorKind('spmm');
 */
export function operatorKind(name: string, fn = 'operatorKind'): OperatorKind {
  const k = typeof name === 'string' ? KINDS.get(name) : undefined;
  if (k) return k;
  const hint = typeof name === 'string' ? suggest(name, [...KINDS.keys()]) : undefined;
  throw new InvalidArgumentError(
    `${fn}: ${describe(name)} is not an operator` + (hint ? ` (did you mean "${hint}"?)` : ` (operators: ${[...KINDS.keys()].join(', ')})`),
  );
}

/** Every registered kind, built-ins first, then user kinds in registration order. */
export function operatorKinds(): OperatorKind[] {
  return [...KINDS.values()];
}

/** @internal add a kind (defineOperator checks it first). */
export function registerKind(kind: OperatorKind): void {
  KINDS.set(kind.name, kind);
}

/** @internal remove a user kind (tests, and undefineOperator). Built-ins stay. */
export function unregisterKind(name: string): boolean {
  const k = KINDS.get(name);
  if (!k || k.builtin) return false;
  return KINDS.delete(name);
}
