// The shipped workloads (workloads/*.json in the package) and loading a user's workload file.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, InvalidArgumentError } from '../errors.js';
import { readJsonFile } from '../io/json-file.js';
import { packageRoot } from '../native/addon.js';
import { suggest } from '../validate.js';
import { defineWorkload, type Workload } from './definition.js';

const FOLDER = join(packageRoot, 'workloads');

/** Names of the workloads shipped with dype (`spmm`, `bfs`, `msbfs`, `gcn`, `sage`, `pagerank`). */
export function shippedWorkloads(): string[] {
  if (!existsSync(FOLDER)) return [];
  return readdirSync(FOLDER)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5))
    .sort();
}

/**
 * A shipped workload by name, or `stream:<name>` for its stream form.
 * @throws {InvalidArgumentError} for an unknown name (with the closest match).
 * @example
 * const gcn = workload('gcn');
 */
export function workload(name: string): Workload {
  const fn = 'workload';
  if (typeof name !== 'string') throw new InvalidArgumentError(`${fn}: name must be a string, got ${describe(name)}`);
  const stream = name.startsWith('stream:');
  const base = stream ? name.slice(7) : name;
  const names = shippedWorkloads();
  if (!names.includes(base)) {
    const hint = suggest(base, names);
    throw new InvalidArgumentError(
      `${fn}: no shipped workload ${JSON.stringify(base)}` + (hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ` (workloads: ${names.join(', ')})`),
    );
  }
  const path = join(FOLDER, `${base}.json`);
  const w = defineWorkload(JSON.parse(readFileSync(path, 'utf8')), `workloads/${base}.json`);
  return stream ? { ...w, stream: true } : w;
}

/**
 * Load a workload definition from a JSON file (see workloads/README.md for the format).
 * @throws {IoError} when it cannot be read; {FormatError} when it is not a valid workload.
 * @example
 * const w = await loadWorkload('my-workload.json');
 */
export async function loadWorkload(path: string): Promise<Workload> {
  const fn = 'loadWorkload';
  if (typeof path !== 'string' || path.length === 0) throw new InvalidArgumentError(`${fn}: path must be a non-empty string, got ${describe(path)}`);
  const raw = await readJsonFile(fn, path);
  return defineWorkload(raw, path);
}
