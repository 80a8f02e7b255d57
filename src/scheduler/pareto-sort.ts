// Sorting point ids by objective values, for the Pareto routines: an LSD radix sort on the
// IEEE-754 bits for large inputs, a merge sort for small ones.

// comparator sort (a JS call per comparison) takes tens of them, so large inputs go through an
// LSD radix sort on the IEEE-754 bits, with every digit's histogram counted in one pass and a
// pass skipped when all keys share its digit (integer-valued objectives have zero low words).

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const LO = LITTLE_ENDIAN ? 0 : 1;
const HI = LITTLE_ENDIAN ? 1 : 0;
const DIGIT_BITS = 11;
const BUCKETS = 1 << DIGIT_BITS;
const DIGIT_MASK = BUCKETS - 1;
/** Below this many ids a merge sort beats clearing and summing 6 x 2048 radix counters. */
export const SMALL_SORT = 1024;
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
export function sortByObjective(values: Float64Array, m: number, k: number, ids: Int32Array): void {
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
export function lexSort(values: Float64Array, m: number, ids: Int32Array): void {
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
