// The cost model's arithmetic: basis terms of each operator's cost, computed from packed feature
// vectors in linear memory, and their dot products with per-device coefficients. Time and energy
// are both linear in the same terms (each term is work of one kind: rows, entries, flops, cache
// lines gathered, levels), with coefficients fitted per device by calibration.

// Layout of a packed matrix feature vector (f64 slots), shared with src/cost/packed.ts.
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
/** Fraction of within-row pairs on the same 16-column block: locality of depth gathers. */
export const GF_SAME_LINE: i32 = 4;
/** Fraction of stored entries a direction-optimising BFS examines in its top-down steps (Beamer's rule on the frontier profile). */
export const GF_TOP_DOWN_EDGES: i32 = 5;
/** Vertices (as a fraction of n, summed over steps) left unvisited when it steps bottom-up: each is scanned. */
export const GF_BOTTOM_UP_VERTICES: i32 = 6;
export const GF_FIELDS: i32 = 7;

export const SPMM_TERMS: i32 = 9;
export const BFS_TERMS: i32 = 9;
export const MSBFS_TERMS: i32 = 8;

const LINE: f64 = 64;

@inline function f(base: usize, i: i32): f64 {
  return load<f64>(base + (<usize>i << 3));
}

@inline function put(base: usize, i: i32, v: f64): void {
  store<f64>(base + (<usize>i << 3), v);
}

/** Fraction of entries whose gather of a `width`-byte row of X lands on the line of the previous entry's row. */
function nearFraction(mf: usize, width: f64): f64 {
  const threshold = LINE / width; // column gaps below this share a cache line
  let cum: f64;
  if (threshold <= 1) {
    cum = f(mf, MF_GAP_CUM);
  } else {
    const b = <i32>Math.floor(Math.log2(threshold));
    if (b >= MF_GAP_BUCKETS - 1) {
      cum = f(mf, MF_GAP_CUM + MF_GAP_BUCKETS - 1);
    } else {
      // Linear within bucket b + 1, which holds gaps in [2^b, 2^(b+1)).
      const lo = f(mf, MF_GAP_CUM + b);
      const hi = f(mf, MF_GAP_CUM + b + 1);
      const start = Math.pow(2, <f64>b);
      cum = lo + (hi - lo) * Math.min(1, (threshold - start) / start);
    }
  }
  return cum * f(mf, MF_PAIRED);
}

/** Fraction of entries whose reuse distance (cumulative table at `at`) is below `capacity` entries. */
function hitFraction(mf: usize, at: i32, capacity: f64): f64 {
  if (capacity < 1) return 0;
  const pos = Math.log2(capacity);
  const b = <i32>Math.floor(pos);
  if (b >= MF_GAP_BUCKETS - 1) return f(mf, at + MF_GAP_BUCKETS - 1);
  const lo = f(mf, at + b);
  return lo + (f(mf, at + b + 1) - lo) * (pos - <f64>b);
}

/**
 * Fraction of gathers of `width`-byte rows of X that miss a cache of `cache` bytes, from the
 * reuse distances: per column for rows of a line or more, per 16-column block for 4-byte rows,
 * blended in between by how many rows share a line.
 */
function missFraction(mf: usize, width: f64, cache: f64): f64 {
  // When all of X fits, only first touches miss (distance in entries over-counts distinct rows,
  // so the histogram alone would still predict misses).
  if (f(mf, MF_COLS) * Math.max(width, 4) <= cache) {
    return 1 - f(mf, (width >= LINE ? MF_REUSE_COL : MF_REUSE_BLK) + MF_GAP_BUCKETS - 1);
  }
  const byColumn = 1 - hitFraction(mf, MF_REUSE_COL, cache / width);
  if (width >= LINE) return byColumn;
  const byBlock = 1 - hitFraction(mf, MF_REUSE_BLK, cache / LINE);
  const t = Math.min(1, Math.log2(LINE / width) / 4);
  return (1 - t) * byColumn + t * byBlock;
}

/** Share of accesses to a footprint that miss a cache of `cache` bytes (0 when it fits). */
@inline function overflow(footprint: f64, cache: f64): f64 {
  return footprint > cache && footprint > 0 ? 1 - cache / footprint : 0;
}

/**
 * SpMM (SpMV: k = 1) terms for output rows holding `rowsR` rows and `nnzR` entries, k columns of
 * `elemBytes` bytes. `near` and `far` are two cache capacities of the device (CPU L2 and LLC,
 * GPU L1 and L2, parts of a CGRA scratchpad): the fit weighs the misses beyond each, since which
 * one a gather stream really overflows depends on replacement and sharing the model cannot see.
 */
export function spmmTerms(mf: usize, k: f64, elemBytes: f64, rowsR: f64, nnzR: f64, near: f64, far: f64, out: usize): void {
  const width = k * elemBytes;
  const lines = Math.ceil(width / LINE);
  const scattered = nnzR * lines * (1 - nearFraction(mf, width));
  put(out, 0, 1);
  put(out, 1, rowsR);
  put(out, 2, nnzR);
  put(out, 3, nnzR * k * (elemBytes / 4));
  put(out, 4, scattered);
  put(out, 5, nnzR * lines * missFraction(mf, width, near));
  put(out, 6, nnzR * lines * missFraction(mf, width, far));
  put(out, 7, rowsR * width / LINE);
  put(out, 8, f(mf, MF_MAX_ROW) * k * (elemBytes / 4));
}

/** BFS terms: per-call, per-level, per-vertex and per-edge work, and the depth gathers that leave each cache. */
export function bfsTerms(gf: usize, mf: usize, near: f64, far: f64, out: usize): void {
  const n = f(gf, GF_N);
  const reached = f(gf, GF_REACHED);
  const edges = reached * f(gf, GF_NNZ);
  put(out, 0, 1);
  put(out, 1, f(gf, GF_LEVELS));
  put(out, 2, n);
  put(out, 3, edges);
  put(out, 4, edges * missFraction(mf, 4, near));
  put(out, 5, edges * missFraction(mf, 4, far));
  put(out, 6, reached * n);
  // Direction-optimising searches (CPU, GPU) examine these instead of every reached edge.
  put(out, 7, f(gf, GF_TOP_DOWN_EDGES) * f(gf, GF_NNZ));
  put(out, 8, f(gf, GF_BOTTOM_UP_VERTICES) * n);
}

/**
 * Multi-source BFS terms for `sources` searches, done in 64-source words. A bit-parallel search
 * processes a vertex once per level at which some source of the word reaches it: where the
 * sources' waves arrive together (small-world graphs) that is about once, on a road network
 * about once per source. With depths from a random source spread over about L levels, the
 * expected number of distinct levels among s sources is L (1 - (1 - 1/L)^s); the last term is
 * the edge work beyond one activation per vertex, which the fit weighs per device.
 */
export function msbfsTerms(gf: usize, mf: usize, sources: f64, near: f64, far: f64, out: usize): void {
  const n = f(gf, GF_N);
  const reached = f(gf, GF_REACHED);
  const words = Math.ceil(sources / 64);
  const edges = reached * f(gf, GF_NNZ) * words;
  const spread = Math.max(1, f(gf, GF_LEVELS));
  const activations = spread * (1 - Math.pow(1 - 1 / spread, Math.min(sources, 64)));
  put(out, 0, sources > 0 ? 1 : 0);
  put(out, 1, f(gf, GF_LEVELS) * words);
  put(out, 2, n * sources);
  put(out, 3, edges);
  put(out, 4, reached * n * words);
  put(out, 5, edges * missFraction(mf, 8, near));
  put(out, 6, edges * missFraction(mf, 8, far));
  put(out, 7, edges * Math.max(0, activations - 1) * missFraction(mf, 8, near));
}

/** sum_i a[i] * b[i] over `count` f64 values. */
export function dot(a: usize, b: usize, count: i32): f64 {
  let s: f64 = 0;
  for (let i = 0; i < count; i++) s += f(a, i) * f(b, i);
  return s;
}

/**
 * One prediction: terms into `terms`, then [seconds, joules] into `out` from the time and energy
 * coefficients. Both are clamped at 0 (a fit may cancel terms on inputs far outside its range).
 */
export function predictSpmm(
  mf: usize, k: f64, elemBytes: f64, rowsR: f64, nnzR: f64, near: f64, far: f64,
  timeCoef: usize, energyCoef: usize, terms: usize, out: usize,
): void {
  spmmTerms(mf, k, elemBytes, rowsR, nnzR, near, far, terms);
  put(out, 0, Math.max(0, dot(terms, timeCoef, SPMM_TERMS)));
  put(out, 1, Math.max(0, dot(terms, energyCoef, SPMM_TERMS)));
}

export function predictBfs(gf: usize, mf: usize, near: f64, far: f64, timeCoef: usize, energyCoef: usize, terms: usize, out: usize): void {
  bfsTerms(gf, mf, near, far, terms);
  put(out, 0, Math.max(0, dot(terms, timeCoef, BFS_TERMS)));
  put(out, 1, Math.max(0, dot(terms, energyCoef, BFS_TERMS)));
}

export function predictMsbfs(
  gf: usize, mf: usize, sources: f64, near: f64, far: f64, timeCoef: usize, energyCoef: usize, terms: usize, out: usize,
): void {
  msbfsTerms(gf, mf, sources, near, far, terms);
  put(out, 0, Math.max(0, dot(terms, timeCoef, MSBFS_TERMS)));
  put(out, 1, Math.max(0, dot(terms, energyCoef, MSBFS_TERMS)));
}
