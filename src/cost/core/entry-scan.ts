// Portable core (builds with asc and with tsc; see portable.d.ts): one pass over the column
// indices of a CSR matrix for the figures that decide gather locality in SpMM/SpMV: distance from
// the diagonal, gaps between consecutive columns of a row, and how often consecutive columns share
// a cache line or a page. Either over every row, or over rows drawn at random (the host combines
// the two, and states the error bound).

/** Buckets of the gap histogram (index 0: zero; b >= 1: [2^(b-1), 2^b)). */
export const GAP_BUCKETS: i32 = 33;

// Output layout, in f64 slots from `out`; every scan adds to what is there.
export const ES_ROWS: i32 = 0;
export const ES_ENTRIES: i32 = 1;
/** Largest |col - row| over the scanned entries. */
export const ES_BANDWIDTH: i32 = 2;
/** Sum of |col - row| over the scanned entries. */
export const ES_DISTANCE: i32 = 3;
/** Consecutive pairs within rows. */
export const ES_PAIRS: i32 = 4;
export const ES_SAME_LINE: i32 = 5;
export const ES_SAME_PAGE: i32 = 6;
export const ES_GAPS: i32 = 7;
export const ES_FIELDS: i32 = ES_GAPS + GAP_BUCKETS;

/** Bytes of scratch a scan needs: integer gap counters, two interleaved copies. */
export const SCAN_WORK_BYTES: i32 = 8 * GAP_BUCKETS;

/**
 * Scan the rows of [first, last) whose length lies in [minLen, maxLen] and add their figures to
 * `out` (ES_FIELDS f64). `work` holds SCAN_WORK_BYTES bytes.
 * @example scanRows(rowPtr, colIdx, 0, rows, 0, 0x7fffffff, work, out) // every row, exactly
 */
export function scanRows(rowPtr: usize, colIdx: usize, first: i32, last: i32, minLen: i32, maxLen: i32, work: usize, out: usize): void {
  clearCounters(work);
  let scannedRows: f64 = 0;
  let entries: f64 = 0;
  let bandwidth: i32 = trunc32(loadF64(out, ES_BANDWIDTH));
  let distance: f64 = 0;
  let sameLine: i32 = 0;
  let samePage: i32 = 0;
  let begin: i32 = loadI32(rowPtr, first);
  for (let r: i32 = first; r < last; r++) {
    const end: i32 = loadI32(rowPtr, r + 1);
    const len: i32 = end - begin;
    if (len >= minLen && len <= maxLen && len > 0) {
      scannedRows += 1;
      entries += <f64>len;
      const b: i32 = scanRow(colIdx, begin, end, r, work);
      if (b > bandwidth) bandwidth = b;
      distance += lastDistance;
      sameLine += lastSameLine;
      samePage += lastSamePage;
    } else if (len >= minLen && len <= maxLen) {
      scannedRows += 1;
    }
    begin = end;
  }
  flush(work, out, scannedRows, entries, bandwidth, distance, sameLine, samePage);
}

/**
 * Scan `draws` rows drawn uniformly at random (with replacement; xorshift32 from `seed` != 0),
 * skipping drawn rows longer than `maxLen`, and add their figures to `out`. A skipped draw
 * counts as a zero, so the sums times rows / draws estimate the sums over all rows of length
 * <= maxLen without bias, each term lying in [0, maxLen] (what the Hoeffding bound needs).
 */
export function scanDraws(rowPtr: usize, colIdx: usize, rows: i32, maxLen: i32, draws: i32, seed: i32, work: usize, out: usize): void {
  clearCounters(work);
  let x: i32 = seed != 0 ? seed : 0x2545f491;
  let entries: f64 = 0;
  let bandwidth: i32 = trunc32(loadF64(out, ES_BANDWIDTH));
  let distance: f64 = 0;
  let sameLine: i32 = 0;
  let samePage: i32 = 0;
  const scale: f64 = <f64>rows / 2147483648.0;
  for (let i: i32 = 0; i < draws; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const r: i32 = trunc32(<f64>(x >>> 1) * scale);
    const begin: i32 = loadI32(rowPtr, r);
    const end: i32 = loadI32(rowPtr, r + 1);
    const len: i32 = end - begin;
    if (len == 0 || len > maxLen) continue;
    entries += <f64>len;
    const b: i32 = scanRow(colIdx, begin, end, r, work);
    if (b > bandwidth) bandwidth = b;
    distance += lastDistance;
    sameLine += lastSameLine;
    samePage += lastSamePage;
  }
  flush(work, out, <f64>draws, entries, bandwidth, distance, sameLine, samePage);
}

/**
 * Largest |col - row| over every entry. With columns sorted within rows only each row's first
 * and last entries can be extreme, so this is O(rows); otherwise O(nnz).
 */
export function bandwidthOf(rowPtr: usize, colIdx: usize, rows: i32, sorted: boolean): i32 {
  let bandwidth: i32 = 0;
  let begin: i32 = loadI32(rowPtr, 0);
  for (let r: i32 = 0; r < rows; r++) {
    const end: i32 = loadI32(rowPtr, r + 1);
    if (end > begin) {
      if (sorted) {
        const lo: i32 = r - loadI32(colIdx, begin);
        const hi: i32 = loadI32(colIdx, end - 1) - r;
        if (lo > bandwidth) bandwidth = lo;
        if (hi > bandwidth) bandwidth = hi;
      } else {
        for (let i: i32 = begin; i < end; i++) {
          let d: i32 = loadI32(colIdx, i) - r;
          if (d < 0) d = -d;
          if (d > bandwidth) bandwidth = d;
        }
      }
    }
    begin = end;
  }
  return bandwidth;
}

// A row's sums besides its bandwidth: module state rather than an out-pointer, so the hot loop
// keeps them in locals (both builds hold one scan at a time; neither is re-entrant here).
let lastDistance: f64 = 0;
let lastSameLine: i32 = 0;
let lastSamePage: i32 = 0;

/**
 * The entries [begin, end) of row r: returns the row's largest |col - r|, leaves its distance
 * sum and same-line/page counts in the module state above, and counts its gaps into the two
 * counter copies at `work` (alternate pairs go to alternate copies, so consecutive increments of
 * one bucket do not wait on each other's store).
 */
function scanRow(colIdx: usize, begin: i32, end: i32, r: i32, work: usize): i32 {
  let prev: i32 = loadI32(colIdx, begin);
  let d0: i32 = prev - r;
  if (d0 < 0) d0 = -d0;
  let bandwidth: i32 = d0;
  // Two partial sums: f64 adds are a 4-cycle chain, and this loop would otherwise wait on it.
  let distA: f64 = <f64>d0;
  let distB: f64 = 0;
  let sameLine: i32 = 0;
  let samePage: i32 = 0;
  let i: i32 = begin + 1;
  for (; i + 1 < end; i += 2) {
    const c1: i32 = loadI32(colIdx, i);
    const c2: i32 = loadI32(colIdx, i + 1);
    let e1: i32 = c1 - r;
    if (e1 < 0) e1 = -e1;
    let e2: i32 = c2 - r;
    if (e2 < 0) e2 = -e2;
    if (e1 > bandwidth) bandwidth = e1;
    if (e2 > bandwidth) bandwidth = e2;
    distA += <f64>e1;
    distB += <f64>e2;
    let g1: i32 = c1 - prev;
    if (g1 < 0) g1 = -g1;
    let g2: i32 = c2 - c1;
    if (g2 < 0) g2 = -g2;
    const k1: i32 = 32 - clz32(g1);
    const k2: i32 = GAP_BUCKETS + 32 - clz32(g2);
    storeI32(work, k1, loadI32(work, k1) + 1);
    storeI32(work, k2, loadI32(work, k2) + 1);
    // Same 16-column block <=> the indices differ only in their low 4 bits (both are >= 0).
    const x1: i32 = c1 ^ prev;
    const x2: i32 = c2 ^ c1;
    sameLine += (x1 < 16 ? 1 : 0) + (x2 < 16 ? 1 : 0);
    samePage += (x1 < 1024 ? 1 : 0) + (x2 < 1024 ? 1 : 0);
    prev = c2;
  }
  if (i < end) {
    const c: i32 = loadI32(colIdx, i);
    let e: i32 = c - r;
    if (e < 0) e = -e;
    if (e > bandwidth) bandwidth = e;
    distA += <f64>e;
    let g: i32 = c - prev;
    if (g < 0) g = -g;
    const k: i32 = 32 - clz32(g);
    storeI32(work, k, loadI32(work, k) + 1);
    sameLine += (c ^ prev) < 16 ? 1 : 0;
    samePage += (c ^ prev) < 1024 ? 1 : 0;
  }
  lastDistance = distA + distB;
  lastSameLine = sameLine;
  lastSamePage = samePage;
  return bandwidth;
}

function clearCounters(work: usize): void {
  for (let b: i32 = 0; b < 2 * GAP_BUCKETS; b++) storeI32(work, b, 0);
}

function flush(work: usize, out: usize, rows: f64, entries: f64, bandwidth: i32, distance: f64, sameLine: i32, samePage: i32): void {
  let pairs: f64 = 0;
  for (let b: i32 = 0; b < GAP_BUCKETS; b++) {
    const c: f64 = <f64>loadI32(work, b) + <f64>loadI32(work, GAP_BUCKETS + b);
    pairs += c;
    storeF64(out, ES_GAPS + b, loadF64(out, ES_GAPS + b) + c);
  }
  storeF64(out, ES_ROWS, loadF64(out, ES_ROWS) + rows);
  storeF64(out, ES_ENTRIES, loadF64(out, ES_ENTRIES) + entries);
  storeF64(out, ES_BANDWIDTH, <f64>bandwidth);
  storeF64(out, ES_DISTANCE, loadF64(out, ES_DISTANCE) + distance);
  storeF64(out, ES_PAIRS, loadF64(out, ES_PAIRS) + pairs);
  storeF64(out, ES_SAME_LINE, loadF64(out, ES_SAME_LINE) + <f64>sameLine);
  storeF64(out, ES_SAME_PAGE, loadF64(out, ES_SAME_PAGE) + <f64>samePage);
}
