// Pareto dominance over flat, row-major objective tables (every objective minimised): the front,
// NSGA-II's non-dominated sort and crowding distance, and the exact hypervolume in 2-D and 3-D.

import { describe, InvalidArgumentError } from '../errors.js';

// ---------------------------------------------------------------------------------------------
// Sorting point ids by objective values. Fronts of 1e5 points must take milliseconds, and a
// comparator sort (a JS call per comparison) takes tens of them, so large inputs go through an
// LSD radix sort on the IEEE-754 bits, with every digit's histogram counted in one pass and a
// pass skipped when all keys share its digit (integer-valued objectives have zero low words).

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const LO = LITTLE_ENDIAN ? 0 : 1;
const HI = LITTLE_ENDIAN ? 1 : 0;
const DIGIT_BITS = 11;
const BUCKETS = 1 << DIGIT_BITS;
const DIGIT_MASK = BUCKETS - 1;
/** Pivots of paretoFront's prefilter: enough to cover a front's extent, few enough to scan per point. */
const PIVOTS = 16;
/** Below this many ids a merge sort beats clearing and summing 6 x 2048 radix counters. */
const SMALL_SORT = 1024;
/** Runs this short are insertion-sorted before merging. */
const RUN = 16;

/** Word scratch reused across calls: the sorts allocate only when an input outgrows it. */
let scratchIds = new Int32Array(0);
let scratchLo = new Int32Array(0);
let scratchHi = new Int32Array(0);
let scratchLo2 = new Int32Array(0);
let scratchHi2 = new Int32Array(0);
const counts = new Int32Array(6 * BUCKETS);

function reserveScratch(n: number): void {
  if (scratchIds.length >= n) return;
  const size = Math.max(n, scratchIds.length * 2);
  scratchIds = new Int32Array(size);
  scratchLo = new Int32Array(size);
  scratchHi = new Int32Array(size);
  scratchLo2 = new Int32Array(size);
  scratchHi2 = new Int32Array(size);
}

/** The doubles' bits as signed 32-bit words: V8 keeps int32 in registers, where uint32 above 2^31 would become doubles. */
function wordsOf(values: Float64Array): Int32Array {
  return new Int32Array(values.buffer, values.byteOffset, values.length * 2);
}

/**
 * Stable sort of `ids` by `values[id * m + k]` ascending, in place. -0 and +0 tie; NaN must
 * have been refused by the caller.
 */
function sortByObjective(values: Float64Array, m: number, k: number, ids: Int32Array): void {
  const n = ids.length;
  if (n < 2) return;
  if (n <= SMALL_SORT) {
    mergeSort(values, m, k, k + 1, ids);
    return;
  }
  reserveScratch(n);
  const words = wordsOf(values);
  let lo = scratchLo;
  let hi = scratchHi;
  counts.fill(0);
  for (let i = 0; i < n; i++) {
    const w = 2 * (ids[i]! * m + k);
    let l = words[w + LO]!;
    let h = words[w + HI]!;
    // Map the bits to an unsigned order that matches numeric order: flip the sign bit of
    // positives, every bit of negatives; -0 becomes +0 so the two tie as they compare.
    if (h < 0) {
      if (h === -0x80000000 && l === 0) h = -0x80000000;
      else {
        h = ~h;
        l = ~l;
      }
    } else h |= -0x80000000;
    lo[i] = l;
    hi[i] = h;
    counts[l & DIGIT_MASK]!++;
    counts[BUCKETS + ((l >>> DIGIT_BITS) & DIGIT_MASK)]!++;
    counts[2 * BUCKETS + (l >>> (2 * DIGIT_BITS))]!++;
    counts[3 * BUCKETS + (h & DIGIT_MASK)]!++;
    counts[4 * BUCKETS + ((h >>> DIGIT_BITS) & DIGIT_MASK)]!++;
    counts[5 * BUCKETS + (h >>> (2 * DIGIT_BITS))]!++;
  }
  let src: Int32Array = ids;
  let dst: Int32Array = scratchIds;
  let lo2 = scratchLo2;
  let hi2 = scratchHi2;
  for (let pass = 0; pass < 6; pass++) {
    const word = pass < 3 ? lo : hi;
    const shift = (pass % 3) * DIGIT_BITS;
    const base = pass * BUCKETS;
    if (counts[base + ((word[0]! >>> shift) & DIGIT_MASK)] === n) continue; // one bucket: order unchanged
    let sum = 0;
    for (let b = 0; b < BUCKETS; b++) {
      const c = counts[base + b]!;
      counts[base + b] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const d = base + ((word[i]! >>> shift) & DIGIT_MASK);
      const to = counts[d]!;
      counts[d] = to + 1;
      dst[to] = src[i]!;
      lo2[to] = lo[i]!;
      hi2[to] = hi[i]!;
    }
    const t = src;
    src = dst;
    dst = t;
    const tl = lo;
    lo = lo2;
    lo2 = tl;
    const th = hi;
    hi = hi2;
    hi2 = th;
  }
  if (src !== ids) ids.set(src.subarray(0, n));
}

/** Lexicographic order of ids by (objective 0, 1, ..., m - 1), ties kept in their given order. */
function lexSort(values: Float64Array, m: number, ids: Int32Array): void {
  if (ids.length <= SMALL_SORT) mergeSort(values, m, 0, m, ids);
  else for (let k = m - 1; k >= 0; k--) sortByObjective(values, m, k, ids);
}

/** Row a before row b in lexicographic order over objectives [from, to). */
function less(values: Float64Array, m: number, from: number, to: number, a: number, b: number): boolean {
  for (let k = from; k < to; k++) {
    const x = values[a * m + k]!;
    const y = values[b * m + k]!;
    if (x !== y) return x < y;
  }
  return false;
}

/** Stable merge sort of ids by objectives [from, to): insertion-sorted runs, then bottom-up merges. */
function mergeSort(values: Float64Array, m: number, from: number, to: number, ids: Int32Array): void {
  const n = ids.length;
  for (let start = 0; start < n; start += RUN) {
    const end = Math.min(start + RUN, n);
    for (let i = start + 1; i < end; i++) {
      const id = ids[i]!;
      let j = i - 1;
      while (j >= start && less(values, m, from, to, id, ids[j]!)) {
        ids[j + 1] = ids[j]!;
        j--;
      }
      ids[j + 1] = id;
    }
  }
  if (n <= RUN) return;
  reserveScratch(n);
  let src: Int32Array = ids;
  let dst: Int32Array = scratchIds;
  for (let width = RUN; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      let o = lo;
      while (i < mid && j < hi) {
        // Take from the right run only when strictly smaller: equal rows keep their order.
        if (less(values, m, from, to, src[j]!, src[i]!)) dst[o++] = src[j++]!;
        else dst[o++] = src[i++]!;
      }
      while (i < mid) dst[o++] = src[i++]!;
      while (j < hi) dst[o++] = src[j++]!;
    }
    const t = src;
    src = dst;
    dst = t;
  }
  if (src !== ids) ids.set(src.subarray(0, n));
}

// ---------------------------------------------------------------------------------------------
// Argument checks.

function checkM(fn: string, m: unknown): 2 | 3 {
  if (m !== 2 && m !== 3) throw new InvalidArgumentError(`${fn}: m (objectives) must be 2 or 3, got ${describe(m)}`);
  return m;
}

function checkValues(fn: string, values: unknown): Float64Array {
  if (!(values instanceof Float64Array)) {
    throw new InvalidArgumentError(`${fn}: values must be a Float64Array, got ${describe(values)}`);
  }
  return values;
}

/** Check that ids are an Int32Array of rows of `values`, none NaN when `finite` is asked. */
function checkIds(fn: string, what: string, ids: unknown, values: Float64Array, m: number, refuseNaN: boolean): Int32Array {
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

function checkRowNotNaN(fn: string, values: Float64Array, m: number, id: number): void {
  for (let k = 0; k < m; k++) {
    const v = values[id * m + k]!;
    if (v !== v) throw new InvalidArgumentError(`${fn}: objective ${k} of point ${id} is NaN`);
  }
}

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
    if (x !== x || y !== y || z !== z) checkRowNotNaN(fn, values, m, i);
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

// ---------------------------------------------------------------------------------------------
// Hypervolume.

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
