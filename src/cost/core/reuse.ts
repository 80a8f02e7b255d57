// Portable core (builds with asc and with tsc; see portable.d.ts): reuse distances of the X rows
// an SpMM gathers. For each entry in storage order, how many entries back the same column block
// was last gathered; a cache holding R blocks serves about the entries whose distance is below R
// (distance in entries over-counts distinct blocks, so this errs toward misses). Unlike the
// within-row gap figures this sees reuse across rows: a banded matrix gathers the same rows of X
// for neighbouring rows, a random one almost never does.

/** Buckets of the histogram: 0 counts first touches; b >= 1 distances in [2^(b-1), 2^b). */
export const REUSE_BUCKETS: i32 = 33;

/**
 * Add the reuse histogram of entries [begin, end) of `colIdx` to `out` (REUSE_BUCKETS f64), with
 * columns grouped in blocks of 2^shift. `last` holds one i32 per block (ceil(cols / 2^shift)),
 * the position + 1 of each block's previous touch; positions before `begin` count as first
 * touches, so windows of one matrix can share `last` without clearing it between windows.
 */
export function reuseWindow(colIdx: usize, begin: i32, end: i32, shift: i32, last: usize, out: usize): void {
  let cold: i32 = 0;
  for (let p: i32 = begin; p < end; p++) {
    const block: i32 = loadI32(colIdx, p) >> shift;
    const prev: i32 = loadI32(last, block) - 1;
    if (prev < begin) {
      cold++;
    } else {
      const d: i32 = p - prev;
      const bucket: i32 = 32 - clz32(d);
      storeF64(out, bucket, loadF64(out, bucket) + 1);
    }
    storeI32(last, block, p + 1);
  }
  storeF64(out, 0, loadF64(out, 0) + <f64>cold);
}
