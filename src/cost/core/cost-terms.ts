// Portable core (builds with asc and with tsc; see portable.d.ts): the cost model's arithmetic.
// Basis terms of each operator's cost computed from packed feature vectors, and their dot
// products with per-device coefficients. Time and energy are both linear in the same terms (each
// term is work of one kind: rows, entries, flops, cache lines gathered, levels), with
// coefficients fitted per device by calibration. The one definition: WebAssembly runs it for the
// model (assembly/cost-model.ts), the TypeScript build is the reference it is tested against.

// Layout of a packed matrix feature vector (f64 slots; src/cost/packed.ts fills it).
export const MF_ROWS: i32 = 0;
export const MF_COLS: i32 = 1;
export const MF_NNZ: i32 = 2;
export const MF_MAX_ROW: i32 = 3;
/** Fraction of entries with a predecessor in their row (nnz - non-empty rows) / nnz. */
export const MF_PAIRED: i32 = 4;
/** MF_GAP_CUM + b: fraction of within-row consecutive pairs whose column gap is < 2^b (b = 0: gap 0). */
export const MF_GAP_CUM: i32 = 5;
export const MF_GAP_BUCKETS: i32 = 33;
/** MF_REUSE_COL + b: fraction of entries whose column was gathered fewer than 2^b entries before. */
export const MF_REUSE_COL: i32 = MF_GAP_CUM + MF_GAP_BUCKETS;
/** The same for 16-column blocks (64-byte lines of 4-byte elements). */
export const MF_REUSE_BLK: i32 = MF_REUSE_COL + MF_GAP_BUCKETS;
export const MF_FIELDS: i32 = MF_REUSE_BLK + MF_GAP_BUCKETS;

// Layout of a packed graph feature vector.
export const GF_N: i32 = 0;
export const GF_NNZ: i32 = 1;
export const GF_LEVELS: i32 = 2;
export const GF_REACHED: i32 = 3;
/** Fraction of stored entries a direction-optimising BFS examines in its top-down steps (Beamer's rule on the frontier profile). */
export const GF_TOP_DOWN_EDGES: i32 = 4;
/** Vertices (as a fraction of n, summed over steps) left unvisited when it steps bottom-up: each is scanned. */
export const GF_BOTTOM_UP_VERTICES: i32 = 5;
/**
 * GF_DISTINCT + j, j = 0..6: the expected number of distinct depths at which 2^j sources' waves
 * reach a vertex, from the depth distribution of the sampled searches (1 for one source; about
 * 2^j on a road network, 2 or 3 on a small-world graph whose waves arrive together).
 */
export const GF_DISTINCT: i32 = 6;
export const GF_DISTINCT_POINTS: i32 = 7;
/** GF_REUSE_VERTEX + b: fraction of a search's edge visits whose target was visited fewer than 2^b visits before. */
export const GF_REUSE_VERTEX: i32 = GF_DISTINCT + GF_DISTINCT_POINTS;
/** The same for 16-vertex blocks. */
export const GF_REUSE_BLOCK: i32 = GF_REUSE_VERTEX + MF_GAP_BUCKETS;
export const GF_FIELDS: i32 = GF_REUSE_BLOCK + MF_GAP_BUCKETS;

export const SPMM_TERMS: i32 = 9;
export const BFS_TERMS: i32 = 9;
export const MSBFS_TERMS: i32 = 9;

const LINE: f64 = 64;

/** Fraction of entries whose gather of a `width`-byte row of X lands on the line of the previous entry's row. */
function nearFraction(mf: usize, width: f64): f64 {
  const threshold: f64 = LINE / width; // column gaps below this share a cache line
  let cum: f64;
  if (threshold <= 1) {
    cum = loadF64(mf, MF_GAP_CUM);
  } else {
    const b: i32 = trunc32(Math.floor(log2Portable(threshold)));
    if (b >= MF_GAP_BUCKETS - 1) {
      cum = loadF64(mf, MF_GAP_CUM + MF_GAP_BUCKETS - 1);
    } else {
      // Linear within bucket b + 1, which holds gaps in [2^b, 2^(b+1)).
      const lo: f64 = loadF64(mf, MF_GAP_CUM + b);
      const hi: f64 = loadF64(mf, MF_GAP_CUM + b + 1);
      const start: f64 = powPortable(2, b);
      cum = lo + (hi - lo) * Math.min(1, (threshold - start) / start);
    }
  }
  return cum * loadF64(mf, MF_PAIRED);
}

/** Fraction of entries whose reuse distance (cumulative table at `at`) is below `capacity` entries. */
function hitFraction(v: usize, at: i32, capacity: f64): f64 {
  if (capacity < 1) return 0;
  const pos: f64 = log2Portable(capacity);
  const b: i32 = trunc32(Math.floor(Math.min(pos, <f64>MF_GAP_BUCKETS)));
  if (b >= MF_GAP_BUCKETS - 1) return loadF64(v, at + MF_GAP_BUCKETS - 1);
  const lo: f64 = loadF64(v, at + b);
  return lo + (loadF64(v, at + b + 1) - lo) * (pos - <f64>b);
}

/**
 * Fraction of gathers of `width`-byte records that miss a cache of `cache` bytes, from cumulative
 * reuse tables in `v`: per record (at `perItem`) for records of a line or more, per 16-record
 * block (at `perBlock`) for 4-byte ones, blended in between by how many records share a line.
 * `items` records in all.
 */
function missOf(v: usize, items: f64, perItem: i32, perBlock: i32, width: f64, cache: f64): f64 {
  // When all of them fit, only first touches miss (distance in accesses over-counts distinct
  // records, so the histogram alone would still predict misses).
  if (items * Math.max(width, 4) <= cache) {
    return 1 - loadF64(v, (width >= LINE ? perItem : perBlock) + MF_GAP_BUCKETS - 1);
  }
  const byItem: f64 = 1 - hitFraction(v, perItem, cache / width);
  if (width >= LINE) return byItem;
  const byBlock: f64 = 1 - hitFraction(v, perBlock, cache / LINE);
  const t: f64 = Math.min(1, log2Portable(LINE / width) / 4);
  return (1 - t) * byItem + t * byBlock;
}

/** Fraction of an SpMM's gathers of `width`-byte rows of X that miss a cache of `cache` bytes (storage order). */
function missFraction(mf: usize, width: f64, cache: f64): f64 {
  return missOf(mf, loadF64(mf, MF_COLS), MF_REUSE_COL, MF_REUSE_BLK, width, cache);
}

/** Fraction of a search's gathers of `width`-byte per-vertex records that miss a cache of `cache` bytes (search order). */
function searchMissFraction(gf: usize, width: f64, cache: f64): f64 {
  return missOf(gf, loadF64(gf, GF_N), GF_REUSE_VERTEX, GF_REUSE_BLOCK, width, cache);
}

/** Expected distinct depths among `sources` waves at a vertex (GF_DISTINCT), interpolated between powers of two. */
function distinctDepths(gf: usize, sources: f64): f64 {
  const s: f64 = Math.max(0, Math.min(sources, 64));
  if (s <= 1) return s;
  const j: i32 = trunc32(Math.floor(log2Portable(s)));
  const lo: f64 = loadF64(gf, GF_DISTINCT + j);
  if (j >= GF_DISTINCT_POINTS - 1) return lo;
  const start: f64 = powPortable(2, j);
  return lo + (loadF64(gf, GF_DISTINCT + j + 1) - lo) * ((s - start) / start);
}

/**
 * SpMM (SpMV: k = 1) terms for output rows holding `rowsR` rows and `nnzR` entries, k columns of
 * `elemBytes` bytes. `near` and `far` are two cache capacities of the device (CPU L2 and LLC,
 * GPU L1 and L2, parts of a CGRA scratchpad): the fit weighs the misses beyond each, since which
 * one a gather stream really overflows depends on replacement and sharing the model cannot see.
 */
export function spmmTerms(mf: usize, k: f64, elemBytes: f64, rowsR: f64, nnzR: f64, near: f64, far: f64, out: usize): void {
  const width: f64 = k * elemBytes;
  const lines: f64 = Math.ceil(width / LINE);
  storeF64(out, 0, 1);
  storeF64(out, 1, rowsR);
  storeF64(out, 2, nnzR);
  storeF64(out, 3, nnzR * k * (elemBytes / 4));
  storeF64(out, 4, nnzR * lines * (1 - nearFraction(mf, width)));
  storeF64(out, 5, nnzR * lines * missFraction(mf, width, near));
  storeF64(out, 6, nnzR * lines * missFraction(mf, width, far));
  storeF64(out, 7, (rowsR * width) / LINE);
  storeF64(out, 8, loadF64(mf, MF_MAX_ROW) * k * (elemBytes / 4));
}

/**
 * BFS terms: per-call, per-level, per-vertex and per-edge work, and the depth gathers that leave
 * each cache (4-byte depths, in the order the search makes them).
 */
export function bfsTerms(gf: usize, near: f64, far: f64, out: usize): void {
  const n: f64 = loadF64(gf, GF_N);
  const reached: f64 = loadF64(gf, GF_REACHED);
  const edges: f64 = reached * loadF64(gf, GF_NNZ);
  storeF64(out, 0, 1);
  storeF64(out, 1, loadF64(gf, GF_LEVELS));
  storeF64(out, 2, n);
  storeF64(out, 3, edges);
  storeF64(out, 4, edges * searchMissFraction(gf, 4, near));
  storeF64(out, 5, edges * searchMissFraction(gf, 4, far));
  storeF64(out, 6, reached * n);
  // Direction-optimising searches (CPU, GPU) examine these instead of every reached edge.
  storeF64(out, 7, loadF64(gf, GF_TOP_DOWN_EDGES) * loadF64(gf, GF_NNZ));
  storeF64(out, 8, loadF64(gf, GF_BOTTOM_UP_VERTICES) * n);
}

/**
 * The BFS terms of one level of a search, from the actual frontier (`frontier` vertices with
 * `frontierEdges` out-edges, `unvisited` vertices not yet found, stepping bottom-up or not): the
 * whole-search terms taken level by level, with the gathers missing each cache at the whole
 * search's rate, so the levels of a search add up to its terms. `call` (0 or 1) adds what a
 * call pays once: its fixed cost and a pass over the depth array.
 */
export function bfsLevelTerms(gf: usize, near: f64, far: f64, frontier: f64, frontierEdges: f64, unvisited: f64, bottomUp: i32, call: i32, out: usize): void {
  const edges: f64 = Math.max(0, frontierEdges);
  const reachedEdges: f64 = loadF64(gf, GF_REACHED) * loadF64(gf, GF_NNZ);
  storeF64(out, 0, <f64>call);
  storeF64(out, 1, 1);
  storeF64(out, 2, call !== 0 ? loadF64(gf, GF_N) : 0);
  storeF64(out, 3, edges);
  storeF64(out, 4, reachedEdges > 0 ? edges * searchMissFraction(gf, 4, near) : 0);
  storeF64(out, 5, reachedEdges > 0 ? edges * searchMissFraction(gf, 4, far) : 0);
  storeF64(out, 6, Math.max(0, frontier));
  storeF64(out, 7, bottomUp !== 0 ? 0 : edges);
  storeF64(out, 8, bottomUp !== 0 ? Math.max(0, unvisited) : 0);
}

/**
 * Multi-source BFS terms for `sources` searches (a whole number), done `lanes` sources to a word
 * (the device's bit-parallel width: 64 on the CPU and GPU, 32 on a CGRA's 32-bit PEs), with
 * three words of state per vertex (seen, this level's and the next level's lanes). A bit-parallel
 * search processes a vertex once per level at which some source of the word reaches it: about
 * once where the sources' waves arrive together (small-world graphs), about once per source on a
 * road network; the expected count, A, comes from the depth distribution (GF_DISTINCT). The edge
 * work beyond one activation per vertex is a term of its own (a CGRA pays it in issue slots) and
 * again where its state gathers leave the far cache (paid in misses).
 */
export function msbfsTerms(gf: usize, sources: f64, lanes: f64, near: f64, far: f64, out: usize): void {
  const n: f64 = loadF64(gf, GF_N);
  const reached: f64 = loadF64(gf, GF_REACHED);
  const words: f64 = Math.ceil(sources / lanes);
  const edges: f64 = reached * loadF64(gf, GF_NNZ) * words;
  const repeats: f64 = edges * Math.max(0, distinctDepths(gf, Math.min(sources, lanes)) - 1);
  const state: f64 = (3 * lanes) / 8;
  const missFar: f64 = searchMissFraction(gf, state, far);
  storeF64(out, 0, sources > 0 ? 1 : 0);
  storeF64(out, 1, loadF64(gf, GF_LEVELS) * words);
  storeF64(out, 2, n * sources);
  storeF64(out, 3, edges);
  storeF64(out, 4, reached * n * words);
  storeF64(out, 5, edges * searchMissFraction(gf, state, near));
  storeF64(out, 6, edges * missFar);
  storeF64(out, 7, repeats);
  storeF64(out, 8, repeats * missFar);
}

/** sum_i a[i] * b[i] over `count` f64 values. */
export function dot(a: usize, b: usize, count: i32): f64 {
  let s: f64 = 0;
  for (let i: i32 = 0; i < count; i++) s += loadF64(a, i) * loadF64(b, i);
  return s;
}

/**
 * [seconds, joules] into `out` from `count` terms and the time and energy coefficients, each
 * clamped at 0 (a fit may cancel terms on inputs far outside its range).
 */
function price(terms: usize, count: i32, timeCoef: usize, energyCoef: usize, out: usize): void {
  storeF64(out, 0, Math.max(0, dot(terms, timeCoef, count)));
  storeF64(out, 1, Math.max(0, dot(terms, energyCoef, count)));
}

/** One prediction: terms into `terms`, then [seconds, joules] into `out`. */
export function predictSpmm(
  mf: usize,
  k: f64,
  elemBytes: f64,
  rowsR: f64,
  nnzR: f64,
  near: f64,
  far: f64,
  timeCoef: usize,
  energyCoef: usize,
  terms: usize,
  out: usize,
): void {
  spmmTerms(mf, k, elemBytes, rowsR, nnzR, near, far, terms);
  price(terms, SPMM_TERMS, timeCoef, energyCoef, out);
}

export function predictBfs(gf: usize, near: f64, far: f64, timeCoef: usize, energyCoef: usize, terms: usize, out: usize): void {
  bfsTerms(gf, near, far, terms);
  price(terms, BFS_TERMS, timeCoef, energyCoef, out);
}

export function predictBfsLevel(
  gf: usize,
  near: f64,
  far: f64,
  frontier: f64,
  frontierEdges: f64,
  unvisited: f64,
  bottomUp: i32,
  call: i32,
  timeCoef: usize,
  energyCoef: usize,
  terms: usize,
  out: usize,
): void {
  bfsLevelTerms(gf, near, far, frontier, frontierEdges, unvisited, bottomUp, call, terms);
  price(terms, BFS_TERMS, timeCoef, energyCoef, out);
}

export function predictMsbfs(gf: usize, sources: f64, lanes: f64, near: f64, far: f64, timeCoef: usize, energyCoef: usize, terms: usize, out: usize): void {
  msbfsTerms(gf, sources, lanes, near, far, terms);
  price(terms, MSBFS_TERMS, timeCoef, energyCoef, out);
}
