// The `rows: [begin, end)` option shared by the row-range kernel variants that let the
// scheduler split one operator across devices.

import { describe, InvalidArgumentError } from '../errors.js';

export function checkRowRange(fn: string, range: unknown, rows: number): readonly [number, number] {
  if (range === undefined) return [0, rows];
  if (!Array.isArray(range) || range.length !== 2) {
    throw new InvalidArgumentError(`${fn}: rows must be a [begin, end) pair, got ${describe(range)}`);
  }
  const [begin, end] = range as unknown[];
  if (typeof begin !== 'number' || typeof end !== 'number' || !Number.isInteger(begin) || !Number.isInteger(end)) {
    throw new InvalidArgumentError(`${fn}: rows must hold two integers, got [${describe(begin)}, ${describe(end)}]`);
  }
  if (begin < 0 || end < begin || end > rows) {
    throw new InvalidArgumentError(`${fn}: rows [${begin}, ${end}) is not a range within [0, ${rows}]`);
  }
  return [begin, end];
}
