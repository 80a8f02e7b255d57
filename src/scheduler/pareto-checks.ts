// Argument checks shared by the Pareto routines.

import { describe, InvalidArgumentError } from '../errors.js';

export function checkM(fn: string, m: unknown): 2 | 3 {
  if (m !== 2 && m !== 3) throw new InvalidArgumentError(`${fn}: m (objectives) must be 2 or 3, got ${describe(m)}`);
  return m;
}

export function checkValues(fn: string, values: unknown): Float64Array {
  if (!(values instanceof Float64Array)) {
    throw new InvalidArgumentError(`${fn}: values must be a Float64Array, got ${describe(values)}`);
  }
  return values;
}

/** Check that ids are an Int32Array of rows of `values`, none NaN when `finite` is asked. */
export function checkIds(fn: string, what: string, ids: unknown, values: Float64Array, m: number, refuseNaN: boolean): Int32Array {
  if (!(ids instanceof Int32Array)) throw new InvalidArgumentError(`${fn}: ${what} must be an Int32Array, got ${describe(ids)}`);
  const rows = Math.floor(values.length / m);
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    if (id < 0 || id >= rows) {
      throw new InvalidArgumentError(`${fn}: ${what}[${i}] = ${id} is not a row of values (${rows} rows of ${m})`);
    }
    if (refuseNaN) checkRowNotNaN(fn, values, m, id);
  }
  return ids;
}

export function checkRowNotNaN(fn: string, values: Float64Array, m: number, id: number): void {
  for (let k = 0; k < m; k++) {
    const v = values[id * m + k]!;
    if (Number.isNaN(v)) throw new InvalidArgumentError(`${fn}: objective ${k} of point ${id} is NaN`);
  }
}
