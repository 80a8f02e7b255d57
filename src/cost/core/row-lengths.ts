// Portable core (builds with asc and with tsc; see portable.d.ts): the row-length distribution of
// a CSR matrix from its row pointers alone, its Gini coefficient and a power-law fit. Linear in
// rows: lengths are counting-sorted into a table, and only the few rows longer than the table
// (at most nnz / table size of them) are sorted by comparison.

/** Buckets of the log2 histograms (index 0: zero; b >= 1: [2^(b-1), 2^b)). */
export const HIST_BUCKETS: i32 = 33;

// Output layout, in f64 slots from `out`.
export const RL_NNZ: i32 = 0;
export const RL_MEAN: i32 = 1;
export const RL_CV: i32 = 2;
export const RL_MAX: i32 = 3;
export const RL_GINI: i32 = 4;
export const RL_EMPTY: i32 = 5;
/** Power-law status: one of the FIT_* codes. */
export const RL_FIT: i32 = 6;
export const RL_ALPHA: i32 = 7;
export const RL_XMIN: i32 = 8;
export const RL_TAIL: i32 = 9;
/** Kolmogorov-Smirnov distance of the chosen fit. */
export const RL_KS: i32 = 10;
export const RL_HIST: i32 = 11;
export const RL_FIELDS: i32 = RL_HIST + HIST_BUCKETS;

export const FIT_OK: i32 = 0;
export const FIT_FEW_ROWS: i32 = 1;
export const FIT_ONE_LENGTH: i32 = 2;
export const FIT_SHORT_TAIL: i32 = 3;
export const FIT_POOR: i32 = 4;

/** Fewest rows in the fitted tail: below this the MLE's standard error passes ~0.15 for alpha near 2.5. */
export const MIN_TAIL_ROWS: i32 = 50;
/**
 * The tail must also hold this share of the non-empty rows: the KS distance of a tail of a few
 * hundred rows is as noisy as the misfit it should detect, and the cost model cares about the
 * rows that carry the work.
 */
export const MIN_TAIL_SHARE: f64 = 0.05;
/** The tail must span max / xmin >= this, or no exponent is identifiable (a grid's 2..4). */
export const MIN_TAIL_SPAN: f64 = 8;
/** Best KS distance above which the lengths are declared not power-law distributed. */
export const MAX_KS: f64 = 0.1;

/** Bytes of scratch rowLengthFeatures needs (the host sizes and passes it). */
export function rowLengthWorkBytes(table: i32, heavy: i32, distinct: i32): f64 {
  return 4 * (<f64>table + <f64>heavy + <f64>distinct) + 24 * <f64>distinct + 32;
}

/** In-place heap sort of `n` i32 at `base` (O(n log n), no recursion, no allocation). */
function heapSort(base: usize, n: i32): void {
  for (let start: i32 = (n >> 1) - 1; start >= 0; start--) siftDown(base, start, n);
  for (let end: i32 = n - 1; end > 0; end--) {
    const t: i32 = loadI32(base, 0);
    storeI32(base, 0, loadI32(base, end));
    storeI32(base, end, t);
    siftDown(base, 0, end);
  }
}

function siftDown(base: usize, start: i32, n: i32): void {
  let root: i32 = start;
  while (2 * root + 1 < n) {
    let child: i32 = 2 * root + 1;
    if (child + 1 < n && loadI32(base, child) < loadI32(base, child + 1)) child++;
    if (loadI32(base, root) >= loadI32(base, child)) return;
    const t: i32 = loadI32(base, root);
    storeI32(base, root, loadI32(base, child));
    storeI32(base, child, t);
    root = child;
  }
}

/**
 * Row-length features of `rows` rows with int32 row pointers at `rowPtr`, written at `out`
 * (RL_FIELDS f64). `work` holds rowLengthWorkBytes(table, heavy, distinct) bytes: lengths below
 * `table` are counted there, at most `heavy` longer ones listed, at most `distinct` distinct
 * positive lengths kept. Returns 0, or -1 when the row pointers decrease.
 */
export function rowLengthFeatures(rowPtr: usize, rows: i32, work: usize, table: i32, heavy: i32, distinct: i32, out: usize): i32 {
  const counts: usize = work;
  const heavyList: usize = counts + <usize>table * 4;
  const vals: usize = heavyList + <usize>heavy * 4;
  // f64 arrays start 8-aligned whatever the i32 counts before them.
  const cnt: usize = (vals + <usize>distinct * 4 + 7) & ~(<usize>7);
  const tailN: usize = cnt + <usize>distinct * 8;
  const tailLn: usize = tailN + <usize>distinct * 8;

  for (let i: i32 = 0; i < RL_FIELDS; i++) storeF64(out, i, 0);
  for (let i: i32 = 0; i < table; i++) storeI32(counts, i, 0);

  let sum: f64 = 0;
  let sumSq: f64 = 0;
  let max: i32 = 0;
  let empty: i32 = 0;
  let heavyCount: i32 = 0;
  let prev: i32 = loadI32(rowPtr, 0);
  for (let r: i32 = 0; r < rows; r++) {
    const next: i32 = loadI32(rowPtr, r + 1);
    const len: i32 = next - prev;
    if (len < 0) return -1;
    prev = next;
    const f: f64 = <f64>len;
    sum += f;
    sumSq += f * f;
    if (len > max) max = len;
    if (len == 0) empty++;
    const bucket: i32 = 32 - clz32(len);
    storeF64(out, RL_HIST + bucket, loadF64(out, RL_HIST + bucket) + 1);
    if (len < table) storeI32(counts, len, loadI32(counts, len) + 1);
    else if (heavyCount < heavy) storeI32(heavyList, heavyCount++, len);
    else return -1; // more long rows than nnz allows: the pointers are inconsistent
  }
  const n: f64 = <f64>rows;
  const mean: f64 = rows > 0 ? sum / n : 0;
  const variance: f64 = rows > 0 ? sumSq / n - mean * mean : 0;
  storeF64(out, RL_NNZ, sum);
  storeF64(out, RL_MEAN, mean);
  storeF64(out, RL_CV, mean > 0 && variance > 0 ? Math.sqrt(variance) / mean : 0);
  storeF64(out, RL_MAX, <f64>max);
  storeF64(out, RL_EMPTY, <f64>empty);

  // Distinct lengths ascending with their counts: the table in order, then the sorted long rows.
  heapSort(heavyList, heavyCount);
  let k: i32 = 0;
  // Gini = (2 sum_i i x_(i) - (n + 1) sum x) / (n sum x) over lengths sorted ascending (1-based
  // ranks); a run of c equal values v after `below` smaller ones adds v (c below + c (c + 1) / 2).
  let ranked: f64 = 0;
  let below: f64 = 0;
  const limit: i32 = max < table ? max + 1 : table;
  for (let v: i32 = 0; v < limit; v++) {
    const c: i32 = loadI32(counts, v);
    if (c == 0) continue;
    const cf: f64 = <f64>c;
    ranked += <f64>v * (cf * below + (cf * (cf + 1)) / 2);
    below += cf;
    if (v > 0 && k < distinct) {
      storeI32(vals, k, v);
      storeF64(cnt, k, cf);
      k++;
    }
  }
  for (let i: i32 = 0; i < heavyCount; ) {
    const v: i32 = loadI32(heavyList, i);
    let j: i32 = i + 1;
    while (j < heavyCount && loadI32(heavyList, j) == v) j++;
    const cf: f64 = <f64>(j - i);
    ranked += <f64>v * (cf * below + (cf * (cf + 1)) / 2);
    below += cf;
    if (k < distinct) {
      storeI32(vals, k, v);
      storeF64(cnt, k, cf);
      k++;
    }
    i = j;
  }
  const gini: f64 = sum > 0 ? (2 * ranked - (n + 1) * sum) / (n * sum) : 0;
  storeF64(out, RL_GINI, gini > 0 ? gini : 0);

  fitPowerLaw(vals, cnt, tailN, tailLn, k, rows - empty, out);
  return 0;
}

/**
 * Discrete power-law MLE (Clauset, Shalizi and Newman 2009, eq. 3.7):
 * alpha = 1 + n / sum ln(d / (xmin - 0.5)) over the n rows with length >= xmin, exact over the
 * distinct lengths. xmin is the power of two minimising the KS distance between the tail's
 * empirical CCDF and the fitted P(X >= d) = ((d - 0.5) / (xmin - 0.5))^(1 - alpha), both taken at
 * powers of two (read off the log2 histogram). Octave points rather than every length because
 * generated power-law graphs (R-MAT/Kronecker) have a comb of humps in their degrees that a
 * point-wise KS distance mistakes for misfit, and because it keeps the scan to ~30 x 30 points.
 */
function fitPowerLaw(vals: usize, cnt: usize, tailN: usize, tailLn: usize, k: i32, nonEmpty: i32, out: usize): void {
  if (nonEmpty < MIN_TAIL_ROWS) {
    storeF64(out, RL_FIT, <f64>FIT_FEW_ROWS);
    return;
  }
  if (k < 2) {
    storeF64(out, RL_FIT, <f64>FIT_ONE_LENGTH);
    return;
  }
  // Suffix sums: rows with length >= vals[j] and the sum of their ln(length).
  let accN: f64 = 0;
  let accLn: f64 = 0;
  for (let j: i32 = k - 1; j >= 0; j--) {
    const c: f64 = loadF64(cnt, j);
    accN += c;
    accLn += c * lnPortable(<f64>loadI32(vals, j));
    storeF64(tailN, j, accN);
    storeF64(tailLn, j, accLn);
  }
  const maxLen: f64 = <f64>loadI32(vals, k - 1);
  let bestKs: f64 = 2;
  let bestAlpha: f64 = 0;
  let bestXmin: f64 = 0;
  let bestTail: f64 = 0;
  let c: i32 = 0; // first distinct length >= xmin
  for (let e: i32 = 0; e < 31; e++) {
    const xmin: f64 = <f64>(1 << e);
    while (c < k && <f64>loadI32(vals, c) < xmin) c++;
    if (c == k) break;
    const nTail: f64 = loadF64(tailN, c);
    if (nTail < <f64>MIN_TAIL_ROWS || nTail < MIN_TAIL_SHARE * <f64>nonEmpty || maxLen < MIN_TAIL_SPAN * xmin) break;
    const lnShift: f64 = lnPortable(xmin - 0.5);
    const sumLn: f64 = loadF64(tailLn, c) - nTail * lnShift;
    if (!(sumLn > 0)) continue;
    const alpha: f64 = 1 + nTail / sumLn;
    // Rows with length >= 2^p are those in histogram buckets p + 1 and up.
    let above: f64 = nTail;
    let ks: f64 = 0;
    for (let p: i32 = e; p < 31 && <f64>(1 << p) <= maxLen; p++) {
      if (p > e) above -= loadF64(out, RL_HIST + p);
      const empirical: f64 = above / nTail;
      const model: f64 = expPortable((1 - alpha) * (lnPortable(<f64>(1 << p) - 0.5) - lnShift));
      const diff: f64 = empirical > model ? empirical - model : model - empirical;
      if (diff > ks) ks = diff;
    }
    if (ks < bestKs) {
      bestKs = ks;
      bestAlpha = alpha;
      bestXmin = xmin;
      bestTail = nTail;
    }
  }
  if (bestTail == 0) {
    storeF64(out, RL_FIT, <f64>FIT_SHORT_TAIL);
    return;
  }
  storeF64(out, RL_KS, bestKs);
  storeF64(out, RL_ALPHA, bestAlpha);
  storeF64(out, RL_XMIN, bestXmin);
  storeF64(out, RL_TAIL, bestTail);
  storeF64(out, RL_FIT, <f64>(bestKs > MAX_KS ? FIT_POOR : FIT_OK));
}
