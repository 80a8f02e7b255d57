// Defining a user operator from a JavaScript module named on the command line: the module either
// calls defineOperator itself (with this dype's registry) or exports the spec, as `operators`
// (one spec or an array) or as its default export, and it is defined here.

import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, InvalidArgumentError } from '../errors.js';
import { defineOperator, type UserOperatorSpec } from './define.js';
import { hasOperator } from './registry.js';

/**
 * Import `file` and make sure operator `name` is defined.
 * @throws {InvalidArgumentError} when the module cannot be imported or neither defines nor exports `name`.
 */
export async function defineFromModule(name: string, file: string): Promise<void> {
  const fn = 'defineFromModule';
  let exports: Record<string, unknown>;
  try {
    exports = (await import(pathToFileURL(resolve(file)).href)) as Record<string, unknown>;
  } catch (cause) {
    throw new InvalidArgumentError(`${fn}: cannot import ${file}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
  if (hasOperator(name)) return;
  const candidates = [exports['operators'], exports['default']].flatMap((x) => (Array.isArray(x) ? x : x === undefined ? [] : [x]));
  const spec = candidates.find((x): x is UserOperatorSpec => x !== null && typeof x === 'object' && (x as { name?: unknown }).name === name);
  if (!spec) {
    const offered = candidates.map((x) => (x as { name?: unknown } | null)?.name).filter((x) => typeof x === 'string');
    throw new InvalidArgumentError(
      `${fn}: ${file} neither defines operator ${JSON.stringify(name)} nor exports its spec (as \`operators\` or default)` +
        (offered.length ? `; it exports ${offered.map((x) => JSON.stringify(x)).join(', ')}` : `; its exports: ${describe(Object.keys(exports))}`),
    );
  }
  defineOperator(spec);
}
