// The exact hypervolume of a front in 2-D and 3-D.

import { describe, InvalidArgumentError } from '../errors.js';
import { checkIds, checkM, checkValues } from './pareto-checks.js';
import { sortByObjective } from './pareto-sort.js';

/**
 * The exact hypervolume (area for m = 2, volume for m = 3) of the region dominated by the
 * points `front` and bounded by `reference`: the measure of the union of the boxes
 * [p, reference]. Points not strictly better than the reference in every objective (NaN
 * included) add nothing; `front` may contain dominated points, which add nothing either.
 * 2-D: a sweep in objective-0 order. 3-D: slices along objective 2, each slice's area kept
 * up to date in a 2-D staircase as points arrive (O(n log n) searches plus array shifts).
 *
 * @throws {InvalidArgumentError} when `m` is not 2 or 3, `reference` does not hold `m` finite
 *   numbers, or `front` is not an Int32Array of rows of `values`.
 * @example
 * hypervolume(new Float64Array([1, 3, 2, 2, 3, 1]), 2, new Int32Array([0, 1, 2]), [4, 4]); // 6
 */
export function hypervolume(values: Float64Array, m: number, front: Int32Array, reference: ArrayLike<number>): number {
  const fn = 'hypervolume';
  checkValues(fn, values);
  checkM(fn, m);
  if (reference === null || typeof reference !== 'object' || typeof reference.length !== 'number' || reference.length !== m) {
    throw new InvalidArgumentError(`${fn}: reference must hold m = ${m} numbers, got ${describe(reference)}`);
  }
  for (let k = 0; k < m; k++) {
    const r = reference[k];
    if (typeof r !== 'number' || !Number.isFinite(r)) {
      throw new InvalidArgumentError(`${fn}: reference[${k}] must be a finite number, got ${describe(r)}`);
    }
  }
  checkIds(fn, 'front', front, values, m, false);
  // Keep the points inside the reference box (a NaN fails every comparison and drops out).
  const ids = new Int32Array(front.length);
  let n = 0;
  outer: for (let i = 0; i < front.length; i++) {
    const id = front[i]!;
    for (let k = 0; k < m; k++) if (!(values[id * m + k]! < reference[k]!)) continue outer;
    ids[n++] = id;
  }
  const inside = ids.subarray(0, n);
  return m === 2 ? area2(values, inside, reference[0]!, reference[1]!) : volume3(values, inside, reference);
}

function area2(values: Float64Array, ids: Int32Array, rx: number, ry: number): number {
  sortByObjective(values, 2, 0, ids);
  // In x order (ties in any order: they add the same total), a point below every earlier one adds the strip between its y and the lowest
  // earlier y, as wide as its distance to the reference: earlier points cover above, later
  // ones are narrower.
  let area = 0;
  let top = ry;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    const y = values[2 * id + 1]!;
    if (y < top) {
      area += (rx - values[2 * id]!) * (top - y);
      top = y;
    }
  }
  return area;
}

function volume3(values: Float64Array, ids: Int32Array, reference: ArrayLike<number>): number {
  const n = ids.length;
  if (n === 0) return 0;
  const rx = reference[0]!;
  const ry = reference[1]!;
  const rz = reference[2]!;
  sortByObjective(values, 3, 2, ids);
  // The 2-D staircase of the points seen so far: x strictly increasing, y strictly decreasing.
  const sx = new Float64Array(n);
  const sy = new Float64Array(n);
  let len = 0;
  let area = 0;
  let volume = 0;
  for (let i = 0; i < n; i++) {
    const id = ids[i]!;
    const x = values[3 * id]!;
    const y = values[3 * id + 1]!;
    const z = values[3 * id + 2]!;
    // Insert (x, y) into the staircase and add the area it newly covers.
    let a = 0;
    let b = len;
    while (a < b) {
      const mid = (a + b) >>> 1;
      if (sx[mid]! < x) a = mid + 1;
      else b = mid;
    }
    const at = a; // first step with sx >= x
    const dominated = (at < len && sx[at] === x && sy[at]! <= y) || (at > 0 && sy[at - 1]! <= y);
    if (!dominated) {
      // Steps before `at` cover everything above sy[at - 1]; the new box adds what the steps
      // from `at` on leave uncovered in [x, rx] x [y, top].
      const top = at > 0 ? sy[at - 1]! : ry;
      let covered = 0;
      let prev = top;
      let end = at;
      while (end < len && sy[end]! >= y) {
        covered += (rx - sx[end]!) * (prev - sy[end]!);
        prev = sy[end]!;
        end++;
      }
      if (end < len) covered += (rx - sx[end]!) * (prev - y);
      area += (rx - x) * (top - y) - covered;
      // Replace the steps [at, end) it dominates by the one new step.
      const removed = end - at;
      if (removed !== 1) {
        sx.copyWithin(at + 1, end, len);
        sy.copyWithin(at + 1, end, len);
        len += 1 - removed;
      }
      sx[at] = x;
      sy[at] = y;
    }
    const next = i + 1 < n ? values[3 * ids[i + 1]! + 2]! : rz;
    volume += area * (next - z);
  }
  return volume;
}
