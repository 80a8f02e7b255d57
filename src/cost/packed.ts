// The bridge to the WebAssembly cost arithmetic (assembly/cost-model.ts): feature vectors packed
// once per input into linear memory, coefficient blocks once per device model, and predictions
// that cross the boundary as one call with scalar arguments, reading two f64 results back.

import { wasmModule, type WasmExports } from '../webassembly/module.js';
import type { GraphFeatures, MatrixFeatures } from './feature-types.js';

// Mirrors of the layout constants in assembly/cost-model.ts (checked against the module on load).
const MF_ROWS = 0;
const MF_COLS = 1;
const MF_NNZ = 2;
const MF_MAX_ROW = 3;
const MF_PAIRED = 4;
const MF_GAP_CUM = 5;
export const MF_GAP_BUCKETS = 33;
export const MF_FIELDS = MF_GAP_CUM + MF_GAP_BUCKETS;
export const GF_FIELDS = 5;

/** Number of basis terms per operator. */
export const TERMS = { spmm: 8, spmv: 8, bfs: 6, msbfs: 6 } as const;
export type ModelOperator = keyof typeof TERMS;

/** Human names of the terms, for reports and `dype calibrate --verbose`. */
export const TERM_NAMES: Readonly<Record<ModelOperator, readonly string[]>> = {
  spmm: ['call', 'rows', 'entries', 'flops', 'scattered lines', 'lines beyond cache', 'output lines', 'longest row'],
  spmv: ['call', 'rows', 'entries', 'flops', 'scattered lines', 'lines beyond cache', 'output lines', 'longest row'],
  bfs: ['call', 'levels', 'vertices', 'edges', 'gathers beyond cache', 'reached vertices'],
  msbfs: ['call', 'levels x words', 'depth writes', 'edges x words', 'reached x words', 'gathers beyond cache'],
};

interface CostExports extends WasmExports {
  readonly MF_FIELDS: WebAssembly.Global;
  readonly GF_FIELDS: WebAssembly.Global;
  readonly SPMM_TERMS: WebAssembly.Global;
  spmmTerms(mf: number, k: number, elemBytes: number, rowsR: number, nnzR: number, cacheBytes: number, out: number): void;
  bfsTerms(gf: number, cacheBytes: number, out: number): void;
  msbfsTerms(gf: number, sources: number, cacheBytes: number, out: number): void;
  predictSpmm(mf: number, k: number, elemBytes: number, rowsR: number, nnzR: number, cacheBytes: number, tc: number, ec: number, terms: number, out: number): void;
  predictBfs(gf: number, cacheBytes: number, tc: number, ec: number, terms: number, out: number): void;
  predictMsbfs(gf: number, sources: number, cacheBytes: number, tc: number, ec: number, terms: number, out: number): void;
}

let checked: CostExports | undefined;

function cost(): CostExports {
  if (checked) return checked;
  const w = wasmModule() as CostExports;
  if (w.MF_FIELDS.value !== MF_FIELDS || w.GF_FIELDS.value !== GF_FIELDS || w.SPMM_TERMS.value !== TERMS.spmm) {
    throw new Error('cost model: the WebAssembly layout does not match src/cost/packed.ts; rebuild with `npm run build:wasm`');
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
  v[MF_ROWS] = mf.rows;
  v[MF_COLS] = mf.cols;
  v[MF_NNZ] = mf.nnz;
  v[MF_MAX_ROW] = mf.rowLength.max;
  const nonEmpty = mf.rows - mf.rowLength.empty;
  v[MF_PAIRED] = mf.nnz > 0 ? Math.max(0, mf.nnz - nonEmpty) / mf.nnz : 0;
  let pairs = 0;
  for (const c of mf.columnGaps) pairs += c;
  let cum = 0;
  for (let b = 0; b < MF_GAP_BUCKETS; b++) {
    cum += mf.columnGaps[b] ?? 0;
    v[MF_GAP_CUM + b] = pairs > 0 ? cum / pairs : 0;
  }
  return v;
}

/** Graph features packed for the model (GF_* layout). */
export function packGraph(gf: GraphFeatures, mf: MatrixFeatures): Float64Array {
  return Float64Array.of(mf.rows, mf.nnz, gf.levels, gf.reached, mf.sameLine);
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

/** Time and energy coefficients of one (device, operator), resident in linear memory. */
export class ResidentCoefficients {
  private readonly time: Block;
  private readonly energy: Block;
  private readonly terms: Block;
  private readonly out: Block;

  constructor(readonly op: ModelOperator, timeCoef: ArrayLike<number>, energyCoef: ArrayLike<number>) {
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

  predictSpmm(mf: ResidentFeatures, k: number, elemBytes: number, rowsR: number, nnzR: number, cacheBytes: number): [number, number] {
    cost().predictSpmm(mf.ptr, k, elemBytes, rowsR, nnzR, cacheBytes, this.time.ptr, this.energy.ptr, this.terms.ptr, this.out.ptr);
    return this.result();
  }

  predictBfs(gf: ResidentFeatures, cacheBytes: number): [number, number] {
    cost().predictBfs(gf.ptr, cacheBytes, this.time.ptr, this.energy.ptr, this.terms.ptr, this.out.ptr);
    return this.result();
  }

  predictMsbfs(gf: ResidentFeatures, sources: number, cacheBytes: number): [number, number] {
    cost().predictMsbfs(gf.ptr, sources, cacheBytes, this.time.ptr, this.energy.ptr, this.terms.ptr, this.out.ptr);
    return this.result();
  }

  private result(): [number, number] {
    const v = this.out.view();
    return [v[0]!, v[1]!];
  }
}

/** Basis terms (for fitting): the same arithmetic the predictions use. */
export function spmmTerms(mf: ResidentFeatures, k: number, elemBytes: number, rowsR: number, nnzR: number, cacheBytes: number): Float64Array {
  const out = new Block(TERMS.spmm);
  cost().spmmTerms(mf.ptr, k, elemBytes, rowsR, nnzR, cacheBytes, out.ptr);
  return out.view().slice();
}

export function bfsTerms(gf: ResidentFeatures, cacheBytes: number): Float64Array {
  const out = new Block(TERMS.bfs);
  cost().bfsTerms(gf.ptr, cacheBytes, out.ptr);
  return out.view().slice();
}

export function msbfsTerms(gf: ResidentFeatures, sources: number, cacheBytes: number): Float64Array {
  const out = new Block(TERMS.msbfs);
  cost().msbfsTerms(gf.ptr, sources, cacheBytes, out.ptr);
  return out.view().slice();
}
