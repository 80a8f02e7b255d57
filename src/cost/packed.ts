// The bridge to the cost arithmetic (src/cost/core/cost-terms.ts, run as WebAssembly): feature
// vectors packed once per input into linear memory, coefficient blocks once per device model,
// and predictions that cross the boundary as one call with scalar arguments, reading two f64
// results back.

import { BEAMER_ALPHA, BEAMER_BETA } from '../beamer.js';
import { NativeError } from '../errors.js';
import { wasmModule, type WasmExports } from '../webassembly/module.js';
import * as C from './core/cost-terms.js';
import type { GraphFeatures, MatrixFeatures } from './feature-types.js';

export const { MF_FIELDS, MF_GAP_BUCKETS, GF_FIELDS } = C;

/**
 * What the terms need of a device: two cache capacities in bytes (the "beyond near/far cache"
 * terms) and the sources its multi-source BFS carries per word.
 */
export interface TermDevice {
  readonly near: number;
  readonly far: number;
  readonly lanes: number;
}

/** Number of basis terms per operator (src/cost/core/cost-terms.ts). */
export const TERMS: Readonly<Record<'spmm' | 'spmv' | 'bfs' | 'msbfs', number>> = {
  spmm: C.SPMM_TERMS,
  spmv: C.SPMM_TERMS,
  bfs: C.BFS_TERMS,
  msbfs: C.MSBFS_TERMS,
};
export type ModelOperator = keyof typeof TERMS;

/** Human names of the terms, for reports and `dype calibrate --verbose`. */
export const TERM_NAMES: Readonly<Record<ModelOperator, readonly string[]>> = {
  spmm: ['call', 'rows', 'entries', 'flops', 'scattered lines', 'lines missing near cache', 'lines missing far cache', 'output lines', 'longest row'],
  spmv: ['call', 'rows', 'entries', 'flops', 'scattered lines', 'lines missing near cache', 'lines missing far cache', 'output lines', 'longest row'],
  bfs: [
    'call',
    'levels',
    'vertices',
    'edges',
    'gathers missing near cache',
    'gathers missing far cache',
    'reached vertices',
    'top-down edges',
    'bottom-up vertex scans',
  ],
  msbfs: [
    'call',
    'levels x words',
    'depth writes',
    'edges x words',
    'reached x words',
    'gathers missing near cache',
    'gathers missing far cache',
    'repeat activations',
    'repeat activations missing far cache',
  ],
};

let checked: WasmExports | undefined;

/** The module, once its layout is known to be this source's (a stale build would misread the vectors). */
function cost(): WasmExports {
  if (checked) return checked;
  const w = wasmModule();
  const layout = [w.MF_FIELDS, w.GF_FIELDS, w.SPMM_TERMS, w.BFS_TERMS, w.MSBFS_TERMS].map((g) => g?.value as unknown);
  if (String(layout) !== String([MF_FIELDS, GF_FIELDS, C.SPMM_TERMS, C.BFS_TERMS, C.MSBFS_TERMS])) {
    throw new NativeError('cost model: wasm/dype.wasm was built from another src/cost/core/cost-terms.ts; rebuild it with `npm run build:wasm`');
  }
  checked = w;
  return w;
}

/** A block of linear memory that lives as long as its owner object (freed by a finalizer). */
class Block {
  readonly ptr: number;
  constructor(readonly length: number) {
    this.ptr = cost().alloc(Math.max(1, length) * 8);
    blocks.register(this, this.ptr);
  }
  /** A fresh view: the memory's ArrayBuffer is replaced whenever it grows. */
  view(): Float64Array {
    return new Float64Array(cost().memory.buffer, this.ptr, this.length);
  }
  write(values: ArrayLike<number>): void {
    this.view().set(values);
  }
}
const blocks = new FinalizationRegistry<number>((ptr) => cost().free(ptr));

/** Matrix features packed for the model (the layout of MF_* in assembly/cost-model.ts). */
export function packMatrix(mf: MatrixFeatures): Float64Array {
  const v = new Float64Array(MF_FIELDS);
  v[C.MF_ROWS] = mf.rows;
  v[C.MF_COLS] = mf.cols;
  v[C.MF_NNZ] = mf.nnz;
  v[C.MF_MAX_ROW] = mf.rowLength.max;
  const nonEmpty = mf.rows - mf.rowLength.empty;
  v[C.MF_PAIRED] = mf.nnz > 0 ? Math.max(0, mf.nnz - nonEmpty) / mf.nnz : 0;
  let pairs = 0;
  for (const c of mf.columnGaps) pairs += c;
  let cum = 0;
  for (let b = 0; b < MF_GAP_BUCKETS; b++) {
    cum += mf.columnGaps[b] ?? 0;
    v[C.MF_GAP_CUM + b] = pairs > 0 ? cum / pairs : 0;
  }
  cumulativeHits(mf.reuse.columns, v, C.MF_REUSE_COL);
  cumulativeHits(mf.reuse.blocks16, v, C.MF_REUSE_BLK);
  return v;
}

/** v[at + b] = fraction of entries with a reuse distance below 2^b (first touches never hit). */
function cumulativeHits(histogram: Float64Array, v: Float64Array, at: number): void {
  let total = 0;
  for (const c of histogram) total += c;
  let cum = 0;
  for (let b = 0; b < MF_GAP_BUCKETS; b++) {
    if (b >= 1) cum += histogram[b] ?? 0;
    v[at + b] = total > 0 ? cum / total : 0;
  }
}

/**
 * What a direction-optimising BFS would examine, replaying Beamer's rule (src/beamer.ts) on the
 * mean frontier profile: the fraction of entries examined top-down, and the unvisited vertices
 * (fraction of n, summed over steps) a bottom-up step scans.
 */
export function beamerWork(gf: GraphFeatures, alpha = BEAMER_ALPHA, beta = BEAMER_BETA): { topDownEdges: number; bottomUpVertices: number } {
  let topDownEdges = 0;
  let bottomUpVertices = 0;
  let explored = 0;
  let visited = 0;
  let bottomUp = false;
  for (let l = 0; l + 1 < gf.frontier.length; l++) {
    const out = gf.frontierEdges[l] ?? 0;
    explored += out;
    visited += gf.frontier[l] ?? 0;
    if (!bottomUp && out > Math.max(0, 1 - explored) / alpha) bottomUp = true;
    else if (bottomUp && (gf.frontier[l] ?? 0) < 1 / beta) bottomUp = false;
    if (bottomUp) bottomUpVertices += Math.max(0, 1 - visited);
    else topDownEdges += out;
  }
  return { topDownEdges, bottomUpVertices };
}

/**
 * Expected number of distinct depths among `sources` independent waves at a vertex, when each
 * wave's depth there follows the sampled searches' depth distribution: sum over levels l of
 * 1 - (1 - p_l)^sources.
 */
export function distinctDepths(gf: GraphFeatures, sources: number): number {
  let total = 0;
  for (const f of gf.frontier) total += f;
  let distinct = 0;
  if (total > 0) for (const f of gf.frontier) distinct += 1 - (1 - f / total) ** sources;
  return distinct;
}

/** Graph features packed for the model (GF_* layout). */
export function packGraph(gf: GraphFeatures, mf: MatrixFeatures): Float64Array {
  const w = beamerWork(gf);
  const v = new Float64Array(GF_FIELDS);
  v[C.GF_N] = mf.rows;
  v[C.GF_NNZ] = mf.nnz;
  // Mean, not maximum, levels: the model prices a typical search from the sampled sources.
  v[C.GF_LEVELS] = gf.meanLevels;
  v[C.GF_REACHED] = gf.reached;
  v[C.GF_TOP_DOWN_EDGES] = w.topDownEdges;
  v[C.GF_BOTTOM_UP_VERTICES] = w.bottomUpVertices;
  for (let j = 0; j < C.GF_DISTINCT_POINTS; j++) v[C.GF_DISTINCT + j] = distinctDepths(gf, 2 ** j);
  cumulativeHits(gf.searchReuse.vertices, v, C.GF_REUSE_VERTEX);
  cumulativeHits(gf.searchReuse.blocks16, v, C.GF_REUSE_BLOCK);
  return v;
}

/** Packed features resident in linear memory. */
export class ResidentFeatures {
  private readonly block: Block;
  constructor(readonly packed: Float64Array) {
    this.block = new Block(packed.length);
    this.block.write(packed);
  }
  get ptr(): number {
    return this.block.ptr;
  }
}

/** One level of a BFS before it runs: its frontier and out-edges, the vertices not yet found, its direction. */
export interface BfsLevel {
  readonly frontier: number;
  readonly frontierEdges: number;
  readonly unvisited: number;
  readonly bottomUp: boolean;
}

/** Time and energy coefficients of one (device, operator), resident in linear memory. */
export class ResidentCoefficients {
  private readonly time: Block;
  private readonly energy: Block;
  private readonly terms: Block;
  private readonly out: Block;

  constructor(
    readonly op: ModelOperator,
    timeCoef: ArrayLike<number>,
    energyCoef: ArrayLike<number>,
  ) {
    const n = TERMS[op];
    if (timeCoef.length !== n || energyCoef.length !== n) {
      throw new Error(`ResidentCoefficients: ${op} takes ${n} coefficients, got ${timeCoef.length} and ${energyCoef.length}`);
    }
    this.time = new Block(n);
    this.energy = new Block(n);
    this.terms = new Block(n);
    this.out = new Block(2);
    this.time.write(timeCoef);
    this.energy.write(energyCoef);
  }

  predictSpmm(mf: ResidentFeatures, k: number, elemBytes: number, rowsR: number, nnzR: number, device: TermDevice): [number, number] {
    cost().predictSpmm(mf.ptr, k, elemBytes, rowsR, nnzR, device.near, device.far, this.time.ptr, this.energy.ptr, this.terms.ptr, this.out.ptr);
    return this.result();
  }

  predictBfs(gf: ResidentFeatures, device: TermDevice): [number, number] {
    cost().predictBfs(gf.ptr, device.near, device.far, this.time.ptr, this.energy.ptr, this.terms.ptr, this.out.ptr);
    return this.result();
  }

  /** One level of a single-source BFS from its actual frontier (see CostModel.predictBfsLevel). */
  predictBfsLevel(gf: ResidentFeatures, device: TermDevice, level: BfsLevel, call: boolean): [number, number] {
    cost().predictBfsLevel(
      gf.ptr,
      device.near,
      device.far,
      level.frontier,
      level.frontierEdges,
      level.unvisited,
      level.bottomUp ? 1 : 0,
      call ? 1 : 0,
      this.time.ptr,
      this.energy.ptr,
      this.terms.ptr,
      this.out.ptr,
    );
    return this.result();
  }

  predictMsbfs(gf: ResidentFeatures, sources: number, device: TermDevice): [number, number] {
    cost().predictMsbfs(gf.ptr, sources, device.lanes, device.near, device.far, this.time.ptr, this.energy.ptr, this.terms.ptr, this.out.ptr);
    return this.result();
  }

  private outView: Float64Array | undefined;

  private result(): [number, number] {
    // Reuse the view until memory grows (which replaces the buffer): a fresh typed array per
    // prediction would cost more than the prediction itself.
    let v = this.outView;
    if (v === undefined || v.buffer !== cost().memory.buffer) {
      v = this.out.view();
      this.outView = v;
    }
    return [v[0]!, v[1]!];
  }
}

/** Basis terms (for fitting): the same arithmetic the predictions use. */
export function spmmTerms(mf: ResidentFeatures, k: number, elemBytes: number, rowsR: number, nnzR: number, device: TermDevice): Float64Array {
  const out = new Block(TERMS.spmm);
  cost().spmmTerms(mf.ptr, k, elemBytes, rowsR, nnzR, device.near, device.far, out.ptr);
  return out.view().slice();
}

export function bfsTerms(gf: ResidentFeatures, device: TermDevice): Float64Array {
  const out = new Block(TERMS.bfs);
  cost().bfsTerms(gf.ptr, device.near, device.far, out.ptr);
  return out.view().slice();
}

export function msbfsTerms(gf: ResidentFeatures, sources: number, device: TermDevice): Float64Array {
  const out = new Block(TERMS.msbfs);
  cost().msbfsTerms(gf.ptr, sources, device.lanes, device.near, device.far, out.ptr);
  return out.view().slice();
}
