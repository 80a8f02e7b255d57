// Pareto dominance over flat, row-major objective tables (every objective minimised): the front,
// NSGA-II's non-dominated sort and crowding distance (the hypervolume is in hypervolume.ts).

import { describe, InvalidArgumentError } from '../errors.js';
import { checkIds, checkM, checkRowNotNaN, checkValues } from './pareto-checks.js';
import { lexSort, SMALL_SORT, sortByObjective } from './pareto-sort.js';

/** Pivots of paretoFront's prefilter: enough to cover a front's extent, few enough to scan per point. */
const PIVOTS = 16;

export { hypervolume } from './hypervolume.js';

// ---------------------------------------------------------------------------------------------
// Dominance and the front.

/**
 * Whether `a` Pareto-dominates `b` over the first `m` objectives (all minimised): `a` is no
 * worse in every objective and strictly better in at least one.
 *
 * @throws {InvalidArgumentError} when `m` is not a positive integer or either point is shorter than `m`.
 * @example
 * dominates([1, 2], [1, 3], 2); // true
 * dominates([1, 2], [1, 2], 2); // false: equal points do not dominate each other
 */
export function dominates(a: ArrayLike<number>, b: ArrayLike<number>, m: number): boolean {
  if (!Number.isInteger(m) || m < 1) throw new InvalidArgumentError(`dominates: m must be a positive integer, got ${describe(m)}`);
  if (a.length < m || b.length < m) {
    throw new InvalidArgumentError(`dominates: points must have at least m = ${m} objectives, got lengths ${a.length} and ${b.length}`);
  }
  let better = false;
  for (let k = 0; k < m; k++) {
    const x = a[k]!;
    const y = b[k]!;
    if (!(x <= y)) return false;
    if (x < y) better = true;
  }
  return better;
}

/** Move entry j one place forward (the prefilter's latest killer is tried earlier next time). */
function swap(a: Float64Array, j: number): void {
  const t = a[j]!;
  a[j] = a[j - 1]!;
  a[j - 1] = t;
}

/** Row `a` dominates row `b` of the same table. */
function rowDominates(values: Float64Array, m: number, a: number, b: number): boolean {
  let better = false;
  for (let k = 0; k < m; k++) {
    const x = values[a * m + k]!;
    const y = values[b * m + k]!;
    if (x > y) return false;
    if (x < y) better = true;
  }
  return better;
}

/**
 * Indices of the non-dominated points among the first `count` rows of `values` (row-major,
 * `m` objectives per row) for which `include` holds, sorted by objective 0 then objective 1
 * ascending. Of exactly equal points only the lowest index is kept. One pass against a few
 * pivot points drops most dominated points; the survivors are sorted (radix sort on the IEEE
 * bits above 1024 points) and swept (m = 2) or run through a Fenwick tree of the least
 * objective 2 over objective-1 ranks (m = 3): O(n log n) whatever the size of the front.
 *
 * @throws {InvalidArgumentError} when `m` is not 2 or 3, `count` does not fit `values`,
 *   `include` is not a function, or an included point has a NaN objective.
 * @example
 * paretoFront(new Float64Array([1, 5, 2, 2, 3, 3, 1, 5]), 2, 4); // Int32Array [0, 1]
 */
export function paretoFront(values: Float64Array, m: number, count: number, include?: (i: number) => boolean): Int32Array {
  const fn = 'paretoFront';
  checkValues(fn, values);
  checkM(fn, m);
  if (!Number.isInteger(count) || count < 0 || count * m > values.length) {
    throw new InvalidArgumentError(`${fn}: count must be an integer in [0, ${Math.floor(values.length / m)}] (rows of values), got ${describe(count)}`);
  }
  if (include !== undefined && typeof include !== 'function') {
    throw new InvalidArgumentError(`${fn}: include must be a function, got ${describe(include)}`);
  }
  return filteredFront(fn, values, m, count, include, undefined);
}

/**
 * paretoFront over the rows whose `mask` byte is 1, without a call per row: for search results,
 * whose feasibility is such a mask. `values` and `count` must have been checked.
 * @internal
 */
export function maskedFront(fn: string, values: Float64Array, m: 2 | 3, count: number, mask: Uint8Array): Int32Array {
  return filteredFront(fn, values, m, count, undefined, mask);
}

function filteredFront(
  fn: string,
  values: Float64Array,
  m: number,
  count: number,
  include: ((i: number) => boolean) | undefined,
  mask: Uint8Array | undefined,
): Int32Array {
  // One pass drops most dominated points, and copies of earlier points, before any sorting:
  // each point is compared with a few pivots (points found non-dominated so far, the latest
  // killer moved forward), which on typical inputs kill it at the first comparison. Survivors
  // (every front point among them) keep index order, so the exact pass below still keeps the
  // first of equal points. Pivot coordinates live in arrays of their own and a 2-D point is
  // read as (x, y, 0), so one inline loop serves both widths without a call per comparison.
  const px = new Float64Array(PIVOTS);
  const py = new Float64Array(PIVOTS);
  const pz = new Float64Array(PIVOTS);
  let pivots = 0;
  let ids = new Int32Array(count);
  let n = 0;
  let seen = 0;
  let filtering = true;
  for (let i = 0; i < count; i++) {
    if (mask !== undefined ? mask[i] !== 1 : include !== undefined && !include(i)) continue;
    const x = values[i * m]!;
    const y = values[i * m + 1]!;
    const z = m === 3 ? values[i * m + 2]! : 0;
    if (Number.isNaN(x) || Number.isNaN(y) || Number.isNaN(z)) checkRowNotNaN(fn, values, m, i);
    // When most points survive (a front as large as the input) the pivots only cost time.
    if (++seen === 1024 && 2 * n > seen) filtering = false;
    if (!filtering) {
      ids[n++] = i;
      continue;
    }
    let dropped = false;
    for (let j = 0; j < pivots; j++) {
      // The pivot <= i everywhere: it dominates i, or equals it with a lower index; either way i goes.
      if (px[j]! <= x && py[j]! <= y && pz[j]! <= z) {
        if (j > 0) {
          swap(px, j);
          swap(py, j);
          swap(pz, j);
        }
        dropped = true;
        break;
      }
    }
    if (dropped) continue;
    ids[n++] = i;
    // i replaces the pivots it dominates, and takes a free slot or else the last one.
    let kept = 0;
    for (let j = 0; j < pivots; j++) {
      const a = px[j]!;
      const b = py[j]!;
      const c = pz[j]!;
      if (x <= a && y <= b && z <= c && (x < a || y < b || z < c)) continue;
      px[kept] = a;
      py[kept] = b;
      pz[kept] = c;
      kept++;
    }
    pivots = kept < PIVOTS ? kept + 1 : PIVOTS;
    px[pivots - 1] = x;
    py[pivots - 1] = y;
    pz[pivots - 1] = z;
  }
  if (n < count) ids = ids.subarray(0, n);
  return frontOfIds(values, m, ids);
}

/**
 * The non-dominated ids among `ids` (reordered in place), in lexicographic order, without
 * argument checks: for callers that validated already.
 * @internal
 */
export function frontOfIds(values: Float64Array, m: number, ids: Int32Array): Int32Array {
  const n = ids.length;
  // Any point that dominates (or duplicates, with a lower index) another precedes it in
  // lexicographic order, so one pass against the points kept so far decides each point.
  const front = new Int32Array(n);
  let size = 0;
  if (m === 2) {
    lexSort(values, 2, ids);
    let best = 0;
    for (let i = 0; i < n; i++) {
      const id = ids[i]!;
      const y = values[2 * id + 1]!;
      if (size === 0 || y < best) {
        front[size++] = id;
        best = y;
      }
    }
    return front.slice(0, size);
  }
  // m = 3: p is dominated iff an earlier point has y <= p.y and z <= p.z, i.e. the least z
  // over earlier points with y-rank <= rank(p.y) is <= p.z. A Fenwick tree keeps that prefix
  // minimum (as the id holding it, -1 for none) in O(log n) per point, whatever the front size.
  const rank = new Int32Array(Math.floor(values.length / 3));
  let ranks = 0;
  const rankByY = (byY: Int32Array): void => {
    for (let i = 0; i < n; i++) {
      const id = byY[i]!;
      if (i === 0 || values[3 * id + 1]! !== values[3 * byY[i - 1]! + 1]!) ranks++;
      rank[id] = ranks;
    }
  };
  if (n > SMALL_SORT) {
    // The radix passes of the lexicographic sort go z, y, x: the order after y gives the ranks.
    sortByObjective(values, 3, 2, ids);
    sortByObjective(values, 3, 1, ids);
    rankByY(ids);
    sortByObjective(values, 3, 0, ids);
  } else {
    const byY = ids.slice();
    sortByObjective(values, 3, 1, byY);
    rankByY(byY);
    lexSort(values, 3, ids);
  }
  const tree = new Int32Array(ranks + 1).fill(-1);
  for (let i = 0; i < n; i++) {
    const id = ids[i]!;
    const z = values[3 * id + 2]!;
    const r = rank[id]!;
    let best = -1;
    for (let j = r; j > 0; j -= j & -j) {
      const t = tree[j]!;
      if (t >= 0 && (best < 0 || values[3 * t + 2]! < values[3 * best + 2]!)) best = t;
    }
    if (best >= 0 && values[3 * best + 2]! <= z) continue;
    front[size++] = id;
    for (let j = r; j <= ranks; j += j & -j) {
      const t = tree[j]!;
      if (t < 0 || values[3 * t + 2]! > z) tree[j] = id;
    }
  }
  return front.slice(0, size);
}

// ---------------------------------------------------------------------------------------------
// NSGA-II ranking.

/**
 * Non-dominated sorting of the points `indices` (rows of `values`): fronts[0] holds the points
 * no other point dominates, fronts[1] those dominated only by fronts[0], and so on; equal
 * points share a front. Each front is in lexicographic objective order. Uses the efficient
 * non-dominated sort with binary search over fronts (Zhang et al. 2015): points are visited
 * in lexicographic order, so a point's dominators have all been placed before it.
 *
 * @throws {InvalidArgumentError} when `m` is not 2 or 3, `indices` is not an Int32Array of
 *   rows of `values`, or one of those rows has a NaN objective.
 * @example
 * nonDominatedSort(new Float64Array([1, 1, 2, 2, 0, 3]), 2, new Int32Array([0, 1, 2]));
 * // [Int32Array [2, 0], Int32Array [1]]
 */
export function nonDominatedSort(values: Float64Array, m: number, indices: Int32Array): Int32Array[] {
  const fn = 'nonDominatedSort';
  checkValues(fn, values);
  checkM(fn, m);
  checkIds(fn, 'indices', indices, values, m, true);
  return nonDominatedSortKernel(values, m, indices.slice());
}

/**
 * nonDominatedSort without checks; reorders `ids`.
 * @internal
 */
export function nonDominatedSortKernel(values: Float64Array, m: number, ids: Int32Array): Int32Array[] {
  lexSort(values, m, ids);
  const fronts: number[][] = [];
  for (let i = 0; i < ids.length; i++) {
    const p = ids[i]!;
    // "Some point of front k dominates p" holds for a prefix of the fronts (a dominator in
    // front k has its own dominator in front k - 1), so binary search for the first front
    // that does not dominate p.
    let lo = 0;
    let hi = fronts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const front = fronts[mid]!;
      let dominated = false;
      // The latest members are the closest in lexicographic order: the likeliest dominators.
      for (let j = front.length - 1; j >= 0; j--) {
        if (rowDominates(values, m, front[j]!, p)) {
          dominated = true;
          break;
        }
      }
      if (dominated) lo = mid + 1;
      else hi = mid;
    }
    if (lo === fronts.length) fronts.push([p]);
    else fronts[lo]!.push(p);
  }
  return fronts.map((f) => Int32Array.from(f));
}

/**
 * NSGA-II crowding distance of each point of `front` (same order): for every objective, the
 * gap between its two neighbours in that objective divided by the objective's range, summed;
 * the extreme points of any objective get Infinity. An objective with zero range adds nothing.
 *
 * @throws {InvalidArgumentError} when `m` is not 2 or 3, or `front` is not an Int32Array of
 *   rows of `values`, or one of those rows has a NaN objective.
 * @example
 * crowdingDistance(new Float64Array([0, 4, 1, 2, 4, 0]), 2, new Int32Array([0, 1, 2]));
 * // Float64Array [Infinity, 2, Infinity]
 */
export function crowdingDistance(values: Float64Array, m: number, front: Int32Array): Float64Array {
  const fn = 'crowdingDistance';
  checkValues(fn, values);
  checkM(fn, m);
  checkIds(fn, 'front', front, values, m, true);
  return crowdingDistanceKernel(values, m, front);
}

/**
 * crowdingDistance without checks.
 * @internal
 */
export function crowdingDistanceKernel(values: Float64Array, m: number, front: Int32Array): Float64Array {
  const n = front.length;
  const distance = new Float64Array(n);
  if (n <= 2) return distance.fill(Infinity);
  // Sort positions (not ids) so the distance lands at the point's place in `front`; the
  // objective column is gathered so the sort reads a dense row.
  const column = new Float64Array(n);
  const order = new Int32Array(n);
  for (let k = 0; k < m; k++) {
    for (let i = 0; i < n; i++) {
      column[i] = values[front[i]! * m + k]!;
      order[i] = i;
    }
    sortByObjective(column, 1, 0, order);
    const first = order[0]!;
    const last = order[n - 1]!;
    const range = column[last]! - column[first]!;
    distance[first] = Infinity;
    distance[last] = Infinity;
    if (!(range > 0) || range === Infinity) continue;
    for (let i = 1; i < n - 1; i++) {
      const p = order[i]!;
      distance[p] = distance[p]! + (column[order[i + 1]!]! - column[order[i - 1]!]!) / range;
    }
  }
  return distance;
}
