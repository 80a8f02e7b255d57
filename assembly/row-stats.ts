// Row-length statistics of a CSR matrix from its row pointers alone: one pass, O(rows).

/** Number of f64 fields rowLengthStats writes. */
export const ROW_STATS_FIELDS: i32 = 6;

/**
 * Write [nnz, mean, coefficient of variation, max, empty rows, rows with more than 2x the mean]
 * as f64 at `out` for `rows` rows whose int32 row pointers start at `rowPtr`.
 * Returns 0, or -1 when the row pointers decrease (the host validates first; this only guards).
 */
export function rowLengthStats(rowPtr: usize, rows: i32, out: usize): i32 {
  let sum: f64 = 0;
  let sumSq: f64 = 0;
  let max: i32 = 0;
  let empty: i32 = 0;
  let prev = load<i32>(rowPtr);
  for (let r = 0; r < rows; r++) {
    const next = load<i32>(rowPtr + ((<usize>(r + 1)) << 2));
    const len = next - prev;
    if (len < 0) return -1;
    sum += <f64>len;
    sumSq += <f64>len * <f64>len;
    if (len > max) max = len;
    if (len == 0) empty++;
    prev = next;
  }
  const mean = rows > 0 ? sum / <f64>rows : 0;
  const variance = rows > 0 ? sumSq / <f64>rows - mean * mean : 0;
  const cv = mean > 0 ? Math.sqrt(Math.max(variance, 0)) / mean : 0;
  // Second pass for the heavy-row count needs the mean; still O(rows) and cache-friendly.
  let heavy: i32 = 0;
  prev = load<i32>(rowPtr);
  for (let r = 0; r < rows; r++) {
    const next = load<i32>(rowPtr + ((<usize>(r + 1)) << 2));
    if (<f64>(next - prev) > 2 * mean) heavy++;
    prev = next;
  }
  store<f64>(out, sum);
  store<f64>(out + 8, mean);
  store<f64>(out + 16, cv);
  store<f64>(out + 24, <f64>max);
  store<f64>(out + 32, <f64>empty);
  store<f64>(out + 40, <f64>heavy);
  return 0;
}
