// Portable core (builds with asc and with tsc; see portable.d.ts): reuse distances of the X rows
// an SpMM gathers. For each entry in storage order, how many entries back the same column, and
// the same 16-column block, was last gathered; a cache holding R rows (or lines) serves about
// the entries whose distance is below R (distance in entries over-counts distinct rows, so this
// errs toward misses). Unlike the within-row gap figures this sees reuse across rows: a banded
// matrix gathers the same rows of X for neighbouring rows, a random one almost never does.

/** Buckets of each histogram: 0 counts first touches; b >= 1 distances in [2^(b-1), 2^b). */
export const REUSE_BUCKETS: i32 = 33;

/** Bytes of integer scratch `reuseWindow` needs for its counters. */
export const REUSE_WORK_BYTES: i32 = 8 * REUSE_BUCKETS;

/**
 * Add the reuse histograms of entries [begin, end) of `colIdx` to `out`: REUSE_BUCKETS f64 per
 * column, then REUSE_BUCKETS per 16-column block. `lastCol` (one i32 per column) and `lastBlock`
 * (one per block) hold the position + 1 of each one's previous touch; positions before `begin`
 * count as first touches, so windows of one matrix share the tables without clearing them.
 * `work` holds REUSE_WORK_BYTES of integer counters (cleared here), flushed to `out` at the end.
 */
export function reuseWindow(colIdx: usize, begin: i32, end: i32, lastCol: usize, lastBlock: usize, work: usize, out: usize): void {
  for (let b: i32 = 0; b < 2 * REUSE_BUCKETS; b++) storeI32(work, b, 0);
  for (let p: i32 = begin; p < end; p++) {
    const col: i32 = loadI32(colIdx, p);
    const block: i32 = col >> 4;
    const prevCol: i32 = loadI32(lastCol, col) - 1;
    const prevBlock: i32 = loadI32(lastBlock, block) - 1;
    storeI32(lastCol, col, p + 1);
    storeI32(lastBlock, block, p + 1);
    // 32 - clz32(d) is the bucket of a distance d >= 1; first touches go to bucket 0.
    const bc: i32 = prevCol < begin ? 0 : 32 - clz32(p - prevCol);
    const bb: i32 = prevBlock < begin ? REUSE_BUCKETS : REUSE_BUCKETS + 32 - clz32(p - prevBlock);
    storeI32(work, bc, loadI32(work, bc) + 1);
    storeI32(work, bb, loadI32(work, bb) + 1);
  }
  for (let b: i32 = 0; b < 2 * REUSE_BUCKETS; b++) storeF64(out, b, loadF64(out, b) + <f64>loadI32(work, b));
}
