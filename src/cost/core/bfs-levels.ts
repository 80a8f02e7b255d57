// Portable core (builds with asc and with tsc; see portable.d.ts): what BFS costs on a graph,
// from level-synchronous searches out of a few sampled sources plus a second sweep from the
// deepest vertex found (the classic double-sweep lower bound on the diameter). O(n + nnz) per
// search; the per-level figures are averaged over the sampled sources only.

// Output header, in f64 slots from `out`; then the search-order reuse histograms (per vertex,
// then per 16-vertex block, SEARCH_REUSE_BUCKETS each), `n + 1` f64 of mean frontier fractions
// per level and `n + 1` of mean edge fractions per level (a search has at most n levels).
export const GF_SOURCES: i32 = 0;
export const GF_LEVELS: i32 = 1;
export const GF_DIAMETER: i32 = 2;
export const GF_REACHED: i32 = 3;
/** Mean over the sampled sources of their number of levels. */
export const GF_MEAN_LEVELS: i32 = 4;
export const GF_HEADER: i32 = 5;
/**
 * Buckets of the search-order reuse histograms: 0 counts first touches in a search, b >= 1
 * edge visits whose target (or its 16-vertex block) was visited between 2^(b-1) and 2^b visits
 * before. The gathers a search makes (depths, per-vertex search state) follow its frontier, not
 * the storage order the matrix features see: on a mesh the two differ by the mesh's width.
 */
export const SEARCH_REUSE_BUCKETS: i32 = 33;
/** Where the mean frontier profile starts. */
export const GF_PROFILE: i32 = GF_HEADER + 2 * SEARCH_REUSE_BUCKETS;

/** f64 slots of output for a graph of n vertices. */
export function graphOutSlots(n: i32): i32 {
  return GF_PROFILE + 2 * (n + 1);
}

/** Bytes of scratch: a level, a queue slot and a last visit per vertex, a last visit per block, the counters. */
export function graphWorkBytes(n: i32): f64 {
  return 4 * (3 * <f64>n + <f64>((n >> 4) + 1) + <f64>(2 * SEARCH_REUSE_BUCKETS)) + 16;
}

/**
 * Pick up to `wanted` distinct sources with at least one out-edge, spread over the id range:
 * the k-th search starts scanning at id (k + 0.5) n / wanted and takes the first vertex with an
 * edge that is not already a source. Writes them as i32 at `sources`; returns how many.
 */
export function pickSources(rowPtr: usize, n: i32, wanted: i32, sources: usize): i32 {
  let found: i32 = 0;
  for (let k: i32 = 0; k < wanted; k++) {
    let v: i32 = trunc32(((<f64>k + 0.5) * <f64>n) / <f64>wanted);
    for (let tries: i32 = 0; tries < n; tries++) {
      if (loadI32(rowPtr, v + 1) > loadI32(rowPtr, v) && !contains(sources, found, v)) {
        storeI32(sources, found++, v);
        break;
      }
      v = v + 1 < n ? v + 1 : 0;
    }
  }
  return found;
}

function contains(list: usize, count: i32, v: i32): boolean {
  for (let i: i32 = 0; i < count; i++) if (loadI32(list, i) == v) return true;
  return false;
}

// Results of the last search, as module state (one search at a time in either build).
let lastDepth: i32 = 0;
let lastDeepest: i32 = 0;
let lastReached: i32 = 0;

/** Scratch of the reuse tracking: last visit (position + 1, 0 for none) per vertex and per block, and the counters. */
let lastVertex: usize = 0;
let lastBlock: usize = 0;
let reuseCounts: usize = 0;

/**
 * Level-synchronous BFS from `source` over the out-edges. With `accumulate` the fraction of
 * vertices and of stored entries at each level is added to the arrays at `frontier` and `edges`,
 * and the reuse distance of every edge visit's target to the histograms at `reuse`.
 */
function search(
  rowPtr: usize,
  colIdx: usize,
  n: i32,
  nnz: f64,
  source: i32,
  level: usize,
  queue: usize,
  accumulate: boolean,
  frontier: usize,
  edges: usize,
  reuse: usize,
): void {
  for (let v: i32 = 0; v < n; v++) storeI32(level, v, -1);
  if (accumulate) {
    for (let v: i32 = 0; v < n; v++) storeI32(lastVertex, v, 0);
    for (let b: i32 = 0; b <= n >> 4; b++) storeI32(lastBlock, b, 0);
    for (let b: i32 = 0; b < 2 * SEARCH_REUSE_BUCKETS; b++) storeI32(reuseCounts, b, 0);
  }
  let visits: i32 = 0;
  storeI32(level, source, 0);
  storeI32(queue, 0, source);
  let head: i32 = 0;
  let tail: i32 = 1;
  let depth: i32 = 0;
  const invN: f64 = 1 / <f64>n;
  const invNnz: f64 = nnz > 0 ? 1 / nnz : 0;
  while (head < tail) {
    const levelBegin: i32 = head;
    const levelEnd: i32 = tail;
    let degrees: i32 = 0;
    for (; head < levelEnd; head++) {
      const u: i32 = loadI32(queue, head);
      const begin: i32 = loadI32(rowPtr, u);
      const end: i32 = loadI32(rowPtr, u + 1);
      degrees += end - begin;
      for (let i: i32 = begin; i < end; i++) {
        const w: i32 = loadI32(colIdx, i);
        if (accumulate) {
          // 32 - clz32(d) is the bucket of a distance d >= 1; first touches go to bucket 0.
          const pv: i32 = loadI32(lastVertex, w) - 1;
          const pb: i32 = loadI32(lastBlock, w >> 4) - 1;
          visits++;
          storeI32(lastVertex, w, visits);
          storeI32(lastBlock, w >> 4, visits);
          const bv: i32 = pv < 0 ? 0 : 32 - clz32(visits - 1 - pv);
          const bb: i32 = SEARCH_REUSE_BUCKETS + (pb < 0 ? 0 : 32 - clz32(visits - 1 - pb));
          storeI32(reuseCounts, bv, loadI32(reuseCounts, bv) + 1);
          storeI32(reuseCounts, bb, loadI32(reuseCounts, bb) + 1);
        }
        if (loadI32(level, w) < 0) {
          storeI32(level, w, depth + 1);
          storeI32(queue, tail++, w);
        }
      }
    }
    if (accumulate) {
      storeF64(frontier, depth, loadF64(frontier, depth) + <f64>(levelEnd - levelBegin) * invN);
      storeF64(edges, depth, loadF64(edges, depth) + <f64>degrees * invNnz);
    }
    if (tail > levelEnd) depth++;
    lastDeepest = loadI32(queue, levelEnd - 1);
  }
  lastDepth = depth;
  lastReached = tail;
  if (accumulate) {
    for (let b: i32 = 0; b < 2 * SEARCH_REUSE_BUCKETS; b++) storeF64(reuse, b, loadF64(reuse, b) + <f64>loadI32(reuseCounts, b));
  }
}

/**
 * BFS features of a square graph of `n` vertices: up to `wanted` sampled sources (written as i32
 * at `sources`), then a sweep from the deepest vertex of the deepest search. `work` holds
 * graphWorkBytes(n) bytes; `out` graphOutSlots(n) f64. Returns the number of levels.
 */
export function graphFeatures(rowPtr: usize, colIdx: usize, n: i32, wanted: i32, sources: usize, work: usize, out: usize): i32 {
  const slots: i32 = graphOutSlots(n);
  for (let i: i32 = 0; i < slots; i++) storeF64(out, i, 0);
  if (n == 0) return 0;
  const nnz: f64 = <f64>loadI32(rowPtr, n);
  const level: usize = work;
  const queue: usize = work + <usize>n * 4;
  lastVertex = queue + <usize>n * 4;
  lastBlock = lastVertex + <usize>n * 4;
  reuseCounts = lastBlock + <usize>((n >> 4) + 1) * 4;
  const reuse: usize = out + <usize>GF_HEADER * 8;
  const frontier: usize = out + <usize>GF_PROFILE * 8;
  const edges: usize = frontier + <usize>(n + 1) * 8;
  const count: i32 = pickSources(rowPtr, n, wanted, sources);
  let levels: i32 = 0;
  let diameter: i32 = 0;
  let farthest: i32 = -1;
  let reached: f64 = 0;
  let levelSum: f64 = 0;
  for (let s: i32 = 0; s < count; s++) {
    search(rowPtr, colIdx, n, nnz, loadI32(sources, s), level, queue, true, frontier, edges, reuse);
    reached += <f64>lastReached / <f64>n;
    levelSum += <f64>(lastDepth + 1);
    if (lastDepth + 1 > levels) {
      levels = lastDepth + 1;
      farthest = lastDeepest;
    }
    if (lastDepth > diameter) diameter = lastDepth;
  }
  if (farthest >= 0) {
    search(rowPtr, colIdx, n, nnz, farthest, level, queue, false, frontier, edges, reuse);
    if (lastDepth > diameter) diameter = lastDepth;
  }
  if (count > 0) {
    const inv: f64 = 1 / <f64>count;
    for (let l: i32 = 0; l < levels; l++) {
      storeF64(frontier, l, loadF64(frontier, l) * inv);
      storeF64(edges, l, loadF64(edges, l) * inv);
    }
  }
  storeF64(out, GF_SOURCES, <f64>count);
  storeF64(out, GF_LEVELS, <f64>levels);
  storeF64(out, GF_DIAMETER, <f64>diameter);
  storeF64(out, GF_REACHED, count > 0 ? reached / <f64>count : 0);
  storeF64(out, GF_MEAN_LEVELS, count > 0 ? levelSum / <f64>count : 0);
  return levels;
}
