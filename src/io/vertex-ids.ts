// Numeric vertex ids of an edge list to 0 .. n-1, by rank among the distinct ids, so the file's
// id order (and with it its locality) survives.

import { LimitError } from '../errors.js';
import { MAX_INDEX } from '../validate.js';

/**
 * Replace ids by their rank among the distinct ids. A lookup table indexed by id when ids are
 * dense enough (the common case: SNAP files mostly number vertices 0..n), else a sorted copy
 * and binary search. 32-bit inputs are renumbered in place.
 */
export function renumber(
  fn: string,
  file: string,
  src: Int32Array | Float64Array,
  dst: Int32Array | Float64Array,
  maxId: number,
): { ids: Float64Array; rowIdx: Int32Array; colIdx: Int32Array } {
  const m = src.length;
  if (src instanceof Int32Array && dst instanceof Int32Array && maxId < 4 * m + (1 << 16)) {
    const rank = new Int32Array(maxId + 1);
    for (let e = 0; e < m; e++) {
      rank[src[e]!] = 1;
      rank[dst[e]!] = 1;
    }
    let k = 0;
    for (let id = 0; id <= maxId; id++) k += rank[id]!;
    const ids = new Float64Array(k);
    k = 0;
    for (let id = 0; id <= maxId; id++) {
      if (rank[id] !== 0) {
        ids[k] = id;
        rank[id] = k++;
      }
    }
    for (let e = 0; e < m; e++) {
      src[e] = rank[src[e]!]!;
      dst[e] = rank[dst[e]!]!;
    }
    return { ids, rowIdx: src, colIdx: dst };
  }
  const all = new Float64Array(2 * m);
  all.set(src);
  all.set(dst, m);
  all.sort();
  let k = 0;
  for (let e = 0; e < all.length; e++) {
    if (k === 0 || all[e] !== all[k - 1]) all[k++] = all[e]!;
  }
  if (k > MAX_INDEX) throw new LimitError(`${fn}: ${file}: ${k} distinct vertex ids exceed the supported ${MAX_INDEX}`);
  const ids = all.slice(0, k);
  const rowIdx = src instanceof Int32Array ? src : new Int32Array(m);
  const colIdx = dst instanceof Int32Array ? dst : new Int32Array(m);
  for (let e = 0; e < m; e++) {
    rowIdx[e] = rankOf(ids, src[e]!);
    colIdx[e] = rankOf(ids, dst[e]!);
  }
  return { ids, rowIdx, colIdx };
}

/** Index of `id` in the sorted, duplicate-free `ids` (which holds it). */
function rankOf(ids: Float64Array, id: number): number {
  let lo = 0;
  let hi = ids.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid]! < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
