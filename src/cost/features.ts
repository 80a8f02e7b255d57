// Feature extraction for the cost model: validates, places the matrix in engine memory, runs the
// portable cores (src/cost/core) in WebAssembly or, for reference, in TypeScript, and turns their
// flat f64 outputs into MatrixFeatures and GraphFeatures.

import { CsrMatrix } from '../data/csr.js';
import { describe, InvalidArgumentError, LimitError } from '../errors.js';
import { checkEnum, checkInt, checkOptions } from '../validate.js';
import * as G from './core/bfs-levels.js';
import * as E from './core/entry-scan.js';
import * as R from './core/row-lengths.js';
import { REUSE_BUCKETS, REUSE_WORK_BYTES } from './core/reuse.js';
import { FEATURE_ENGINES, type FeatureEngine, type FeatureEngineName } from './engine.js';
import { MAX_BLOCK_BYTES, wasmEngine } from './engine-wasm.js';
import { typescriptEngine } from './engine-typescript.js';
import { type Coverage, type GraphFeatures, LOG2_BUCKETS, type MatrixFeatures, type PowerLaw } from './feature-types.js';

/** Above this many stored entries the gap and locality figures come from a row sample. */
export const DEFAULT_SAMPLE_ABOVE = 2 ** 24;
/** Rows drawn when sampling: enough for an error bound near 0.02 when the rows are not very skewed. */
export const DEFAULT_SAMPLE_ROWS = 2 ** 18;
/** Probability that the stated sampling error bound fails, shared (union bound) by the 35 sampled fractions. */
const SAMPLE_FAILURE = 0.01;
const SAMPLED_FRACTIONS = 2 + LOG2_BUCKETS;
const SAMPLE_SEED = 0x9e3779b9 | 0;
const MAX_I32 = 0x7fffffff;

export interface MatrixFeaturesOptions {
  /** Which build of the cores runs. @default 'wasm' */
  readonly engine?: FeatureEngineName;
  /** Sample the gap and locality figures when nnz exceeds this. @default 2^24 */
  readonly sampleAbove?: number;
  /** Rows drawn (with replacement) when sampling. @default 2^18 */
  readonly sampleRows?: number;
}

export interface GraphFeaturesOptions {
  /** Which build of the cores runs. @default 'wasm' */
  readonly engine?: FeatureEngineName;
  /** BFS sources sampled. @default 4 */
  readonly sources?: number;
}

function engineFor(name: FeatureEngineName): FeatureEngine {
  return name === 'typescript' ? typescriptEngine() : wasmEngine();
}

function checkMatrix(fn: string, what: string, a: unknown): CsrMatrix {
  if (!(a instanceof CsrMatrix)) throw new InvalidArgumentError(`${fn}: ${what} must be a CsrMatrix, got ${describe(a)}`);
  return a;
}

const FIT_REASONS: Readonly<Record<number, (rl: Float64Array) => string>> = {
  [R.FIT_FEW_ROWS]: () => `fewer than ${R.MIN_TAIL_ROWS} non-empty rows`,
  [R.FIT_ONE_LENGTH]: () => 'every non-empty row has the same length',
  [R.FIT_SHORT_TAIL]: () =>
    `no tail of ${R.MIN_TAIL_ROWS}+ rows (and ${R.MIN_TAIL_SHARE * 100}% of the non-empty ones) spans ${R.MIN_TAIL_SPAN}x in length (max / xmin)`,
  [R.FIT_POOR]: (rl) => `best fit is poor: KS distance ${rl[R.RL_KS]!.toFixed(3)} > ${R.MAX_KS} (alpha ${rl[R.RL_ALPHA]!.toFixed(2)} at xmin ${rl[R.RL_XMIN]})`,
};

function powerLawOf(rl: Float64Array): PowerLaw {
  const code = rl[R.RL_FIT]!;
  if (code === R.FIT_OK) return { state: 'fitted', alpha: rl[R.RL_ALPHA]!, xmin: rl[R.RL_XMIN]!, tailRows: rl[R.RL_TAIL]! };
  return { state: 'not-fitted', reason: FIT_REASONS[code]?.(rl) ?? `unknown fit status ${code}` };
}

/** The row-length half: one pass over the row pointers, then the distribution's shape. */
function rowLengths(fn: string, engine: FeatureEngine, a: CsrMatrix, rowPtr: number): Float64Array {
  const table = Math.min(a.nnz, Math.max(a.rows, 4096)) + 1;
  const heavy = Math.floor(a.nnz / table) + 1;
  const distinct = Math.floor(Math.sqrt(2 * a.nnz)) + 2;
  const work = engine.alloc(R.rowLengthWorkBytes(table, heavy, distinct));
  const out = engine.alloc(8 * R.RL_FIELDS);
  try {
    if (engine.rowLengthFeatures(rowPtr, a.rows, work, table, heavy, distinct, out) !== 0) {
      throw new InvalidArgumentError(`${fn}: row pointers of ${a} are inconsistent (decreasing)`);
    }
    return engine.readF64(out, R.RL_FIELDS);
  } finally {
    engine.free(out);
    engine.free(work);
  }
}

/** Entries scanned for reuse distances in one pass; larger matrices are scanned in windows. */
const REUSE_EXACT = 2 ** 18;
const REUSE_WINDOW = 2 ** 16;
const REUSE_WINDOWS = 4;

/** Reuse-distance histograms at column and 16-column-block granularity (see MatrixFeatures.reuse). */
function reuseOf(engine: FeatureEngine, a: CsrMatrix, colIdx: number): MatrixFeatures['reuse'] {
  const windows: [number, number][] = [];
  if (a.nnz <= REUSE_EXACT) windows.push([0, a.nnz]);
  else {
    for (let w = 0; w < REUSE_WINDOWS; w++) {
      const begin = Math.floor(((a.nnz - REUSE_WINDOW) * w) / (REUSE_WINDOWS - 1));
      windows.push([begin, begin + REUSE_WINDOW]);
    }
  }
  // Tables sized in whole 8-byte slots, so clearing them as f64 slots stays inside the blocks.
  const colSlots = Math.ceil(Math.max(1, a.cols) / 2);
  const blockSlots = Math.ceil(Math.max(1, Math.ceil(a.cols / 16)) / 2);
  if (8 * colSlots > MAX_BLOCK_BYTES) {
    throw new LimitError(
      `matrixFeatures: the per-column reuse table of ${a} needs ${8 * colSlots} bytes, more than the ${MAX_BLOCK_BYTES} one array may take in engine memory`,
    );
  }
  const lastCol = engine.alloc(8 * colSlots);
  const lastBlock = engine.alloc(8 * blockSlots);
  const work = engine.alloc(REUSE_WORK_BYTES);
  const out = engine.alloc(16 * REUSE_BUCKETS);
  try {
    // Positions are stored + 1, so zeroed tables mean "never touched".
    engine.zeroF64(lastCol, colSlots);
    engine.zeroF64(lastBlock, blockSlots);
    engine.zeroF64(out, 2 * REUSE_BUCKETS);
    for (const [b, e] of windows) engine.reuseWindow(colIdx, b, e, lastCol, lastBlock, work, out);
    const both = engine.readF64(out, 2 * REUSE_BUCKETS);
    return {
      columns: both.slice(0, REUSE_BUCKETS),
      blocks16: both.slice(REUSE_BUCKETS),
      entries: windows.reduce((s, [b, e]) => s + e - b, 0),
    };
  } finally {
    engine.free(out);
    engine.free(work);
    engine.free(lastBlock);
    engine.free(lastCol);
  }
}

interface Scan {
  readonly figures: Float64Array;
  readonly coverage: Coverage;
}

/**
 * The column half: every row when nnz <= sampleAbove; otherwise rows longer than `lightMax`
 * exactly and `draws` random rows of the rest, whose sums are scaled by rows / draws. Each draw
 * adds at most lightMax - 1 pairs to any count, so by Hoeffding a count's error exceeds
 * rows (lightMax - 1) sqrt(ln(2 k / delta) / (2 draws)) with probability under delta / k; over
 * k = 35 fractions of the exactly known pair total, all hold together with probability 1 - delta.
 */
function entryScan(engine: FeatureEngine, a: CsrMatrix, csr: { rowPtr: number; colIdx: number }, nonEmpty: number, sampleAbove: number, draws: number): Scan {
  const work = engine.alloc(E.SCAN_WORK_BYTES);
  const exact = engine.alloc(8 * E.ES_FIELDS);
  const drawn = engine.alloc(8 * E.ES_FIELDS);
  try {
    engine.zeroF64(exact, E.ES_FIELDS);
    engine.zeroF64(drawn, E.ES_FIELDS);
    if (a.nnz <= sampleAbove || a.rows === 0) {
      engine.scanRows(csr.rowPtr, csr.colIdx, 0, a.rows, 0, MAX_I32, work, exact);
      return { figures: engine.readF64(exact, E.ES_FIELDS), coverage: { state: 'exact' } };
    }
    // Rows up to 4x the mean length are sampled; a power-law matrix's long rows are read whole.
    const lightMax = Math.max(16, Math.ceil((4 * a.nnz) / a.rows));
    engine.scanRows(csr.rowPtr, csr.colIdx, 0, a.rows, lightMax + 1, MAX_I32, work, exact);
    engine.scanDraws(csr.rowPtr, csr.colIdx, a.rows, lightMax, draws, SAMPLE_SEED, work, drawn);
    const heavy = engine.readF64(exact, E.ES_FIELDS);
    const sample = engine.readF64(drawn, E.ES_FIELDS);
    const scale = a.rows / draws;
    const figures = new Float64Array(E.ES_FIELDS);
    for (let i = 0; i < E.ES_FIELDS; i++) figures[i] = heavy[i]! + sample[i]! * scale;
    figures[E.ES_BANDWIDTH] = engine.bandwidthOf(csr.rowPtr, csr.colIdx, a.rows, a.sortedColumns);
    const pairs = a.nnz - nonEmpty;
    const bound = pairs > 0 ? ((a.rows * (lightMax - 1)) / pairs) * Math.sqrt(Math.log((2 * SAMPLED_FRACTIONS) / SAMPLE_FAILURE) / (2 * draws)) : 0;
    const examined = heavy[E.ES_ROWS]! + draws;
    return {
      figures,
      coverage: { state: 'sampled', rows: examined, fraction: Math.min(1, examined / a.rows), errorBound: bound },
    };
  } finally {
    engine.free(drawn);
    engine.free(exact);
    engine.free(work);
  }
}

/**
 * Structural features of a sparse matrix (what SpMM and SpMV cost): shape, row-length
 * distribution with Gini and a power-law fit, distance from the diagonal, and the gaps and
 * cache-line/page locality of consecutive columns in a row. Linear time; the gap and locality
 * figures come from a row sample with a stated error bound (in `coverage`) above `sampleAbove`.
 * The matrix is copied into WebAssembly memory on the first call for it and kept there.
 *
 * @throws {InvalidArgumentError} when `a` is not a CsrMatrix or an option is unknown or out of range.
 * @throws {LimitError} when an array of `a` is too large for WebAssembly memory (over 1 GiB).
 * @throws {NativeError} when wasm/dype.wasm is missing (run `npm run build:wasm`).
 * @example
 * const f = matrixFeatures(kroneckerGraph({ scale: 16 }));
 * f.rowLength.gini; // ~0.6
 * f.powerLaw.state === 'fitted' && f.powerLaw.alpha; // ~2.2
 */
export function matrixFeatures(a: CsrMatrix, options?: MatrixFeaturesOptions): MatrixFeatures {
  const fn = 'matrixFeatures';
  checkMatrix(fn, 'a', a);
  const o = checkOptions(fn, options, ['engine', 'sampleAbove', 'sampleRows']);
  const engine = engineFor(o.engine === undefined ? 'wasm' : checkEnum(fn, 'options.engine', o.engine, FEATURE_ENGINES));
  const sampleAbove = o.sampleAbove === undefined ? DEFAULT_SAMPLE_ABOVE : checkInt(fn, 'options.sampleAbove', o.sampleAbove, 0);
  const draws = o.sampleRows === undefined ? DEFAULT_SAMPLE_ROWS : checkInt(fn, 'options.sampleRows', o.sampleRows, 1, MAX_I32);
  const csr = engine.resident(a, fn);
  const rl = rowLengths(fn, engine, a, csr.rowPtr);
  const empty = rl[R.RL_EMPTY]!;
  const { figures, coverage } = entryScan(engine, a, csr, a.rows - empty, sampleAbove, draws);
  const pairs = a.nnz - (a.rows - empty);
  return {
    rows: a.rows,
    cols: a.cols,
    nnz: a.nnz,
    density: a.density,
    rowLength: {
      mean: rl[R.RL_MEAN]!,
      cv: rl[R.RL_CV]!,
      max: rl[R.RL_MAX]!,
      gini: rl[R.RL_GINI]!,
      empty,
      histogram: rl.slice(R.RL_HIST, R.RL_HIST + LOG2_BUCKETS),
    },
    bandwidth: figures[E.ES_BANDWIDTH]!,
    meanDistance: a.nnz > 0 ? figures[E.ES_DISTANCE]! / a.nnz : 0,
    columnGaps: figures.slice(E.ES_GAPS, E.ES_GAPS + LOG2_BUCKETS),
    sameLine: pairs > 0 ? figures[E.ES_SAME_LINE]! / pairs : 0,
    samePage: pairs > 0 ? figures[E.ES_SAME_PAGE]! / pairs : 0,
    powerLaw: powerLawOf(rl),
    reuse: reuseOf(engine, a, csr.colIdx),
    coverage,
  };
}

/**
 * BFS-relevant features of a square graph (its out-edges): level-synchronous searches from
 * `sources` sampled vertices with out-edges, spread over the id range, giving the mean fraction of
 * vertices and of stored entries at each level and the fraction reached; a second sweep from the
 * deepest vertex found sharpens the diameter estimate. O(n + nnz) per search.
 *
 * @throws {InvalidArgumentError} when `g` is not a square CsrMatrix or an option is unknown or out of range.
 * @throws {LimitError} when an array of `g` is too large for WebAssembly memory (over 1 GiB).
 * @throws {NativeError} when wasm/dype.wasm is missing (run `npm run build:wasm`).
 * @example
 * const f = graphFeatures(gridGraph({ rows: 100, cols: 100 }));
 * f.diameterEstimate; // ~198
 */
export function graphFeatures(g: CsrMatrix, options?: GraphFeaturesOptions): GraphFeatures {
  const fn = 'graphFeatures';
  checkMatrix(fn, 'g', g);
  if (g.rows !== g.cols) throw new InvalidArgumentError(`${fn}: g must be square (a graph), got ${g.rows}x${g.cols}`);
  const o = checkOptions(fn, options, ['engine', 'sources']);
  const engine = engineFor(o.engine === undefined ? 'wasm' : checkEnum(fn, 'options.engine', o.engine, FEATURE_ENGINES));
  const wanted = o.sources === undefined ? 4 : checkInt(fn, 'options.sources', o.sources, 1, 64);
  const csr = engine.resident(g, fn);
  const n = g.rows;
  const sources = engine.alloc(4 * wanted);
  const work = engine.alloc(G.graphWorkBytes(n));
  const slots = G.graphOutSlots(n);
  const out = engine.alloc(8 * slots);
  try {
    const levels = engine.graphFeatures(csr.rowPtr, csr.colIdx, n, wanted, sources, work, out);
    const header = engine.readF64(out, G.GF_HEADER);
    const reuseAt = out + 8 * G.GF_HEADER;
    const frontierAt = out + 8 * G.GF_PROFILE;
    return {
      sources: engine.readI32(sources, header[G.GF_SOURCES]!),
      levels,
      meanLevels: header[G.GF_MEAN_LEVELS]!,
      diameterEstimate: header[G.GF_DIAMETER]!,
      frontier: engine.readF64(frontierAt, levels),
      frontierEdges: engine.readF64(frontierAt + 8 * (n + 1), levels),
      reached: header[G.GF_REACHED]!,
      searchReuse: {
        vertices: engine.readF64(reuseAt, G.SEARCH_REUSE_BUCKETS),
        blocks16: engine.readF64(reuseAt + 8 * G.SEARCH_REUSE_BUCKETS, G.SEARCH_REUSE_BUCKETS),
      },
    };
  } finally {
    engine.free(out);
    engine.free(work);
    engine.free(sources);
  }
}
