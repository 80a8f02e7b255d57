// 2D lattice graphs with random edge deletions: the road-network stand-in (degree at most 4,
// diameter in the hundreds or thousands), the opposite extreme to Kronecker graphs for BFS.

import { CsrMatrix } from '../data/csr.js';
import { checkOptions, MAX_INDEX } from '../validate.js';
import { LimitError } from '../errors.js';
import {
  checkEntries,
  checkProbability,
  checkSeed,
  checkSize,
  checkSpecObject,
  checkWeights,
  GRAPH_OPTION_KEYS,
  type GraphOptions,
  withWeights,
} from './common.js';
import { Rng } from './rng.js';

export interface GridOptions extends GraphOptions {
  /** Lattice rows. Required, at least 1. */
  readonly rows: number;
  /** Lattice columns. Required, at least 1. */
  readonly cols: number;
  /**
   * Probability that each lattice edge is deleted, independently. About 0.1 to 0.3 gives a
   * road-like graph with dead ends and detours that is still mostly connected.
   * @default 0
   */
  readonly deleteFraction?: number;
}

const KEYS = ['rows', 'cols', 'deleteFraction', ...GRAPH_OPTION_KEYS] as const;

/**
 * An undirected rows x cols 4-neighbour lattice, vertex (r, c) numbered r * cols + c, with
 * each edge deleted with probability `deleteFraction` (one draw per edge: first the
 * horizontal edges in row-major order, then the vertical ones). Symmetric pattern matrix with
 * sorted columns; degrees are at most 4 and the diameter at least rows + cols - 2.
 *
 * @throws {InvalidArgumentError} on a missing or non-integer rows or cols (or below 1),
 *   deleteFraction outside [0, 1], a bad seed, or an unknown option.
 * @throws {LimitError} when rows * cols > 2^31 - 1 or the graph would store more than
 *   2^31 - 1 entries.
 * @example
 * const g = gridGraph({ rows: 300, cols: 300, deleteFraction: 0.1, seed: 2 });
 * g.rows; // 90000 vertices
 */
export function gridGraph(options: GridOptions): CsrMatrix {
  const fn = 'gridGraph';
  checkSpecObject(fn, options);
  const opts = checkOptions(fn, options, KEYS);
  const rows = checkSize(fn, 'rows', opts.rows, 1, MAX_INDEX);
  const cols = checkSize(fn, 'cols', opts.cols, 1, MAX_INDEX);
  const p = opts.deleteFraction === undefined ? 0 : checkProbability(fn, 'deleteFraction', opts.deleteFraction);
  const seed = checkSeed(fn, opts.seed);
  const weights = checkWeights(fn, opts.weights);
  const n = rows * cols;
  if (n > MAX_INDEX) {
    throw new LimitError(`${fn}: a ${rows}x${cols} grid has ${n} vertices, more than the limit of ${MAX_INDEX}`);
  }
  const hEdges = rows * (cols - 1);
  const vEdges = (rows - 1) * cols;
  checkEntries(fn, 2 * (hEdges + vEdges), `a ${rows}x${cols} grid`, n);

  // keepH[r * (cols - 1) + c]: edge (r, c) - (r, c + 1); keepV[r * cols + c]: (r, c) - (r + 1, c).
  const rng = new Rng(seed);
  const threshold = p * 4294967296; // delete when the draw is below
  const keepH = new Uint8Array(hEdges);
  const keepV = new Uint8Array(vEdges);
  for (let e = 0; e < hEdges; e++) keepH[e] = rng.nextU32() >= threshold ? 1 : 0;
  for (let e = 0; e < vEdges; e++) keepV[e] = rng.nextU32() >= threshold ? 1 : 0;

  const rowPtr = new Int32Array(n + 1);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const v = r * cols + c;
      const degree =
        (r > 0 ? keepV[v - cols]! : 0) +
        (c > 0 ? keepH[r * (cols - 1) + c - 1]! : 0) +
        (c + 1 < cols ? keepH[r * (cols - 1) + c]! : 0) +
        (r + 1 < rows ? keepV[v]! : 0);
      rowPtr[v + 1] = rowPtr[v]! + degree;
    }
  }
  const colIdx = new Int32Array(rowPtr[n]!);
  let w = 0;
  // Neighbours in increasing id order: up, left, right, down.
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const v = r * cols + c;
      if (r > 0 && keepV[v - cols]) colIdx[w++] = v - cols;
      if (c > 0 && keepH[r * (cols - 1) + c - 1]) colIdx[w++] = v - 1;
      if (c + 1 < cols && keepH[r * (cols - 1) + c]) colIdx[w++] = v + 1;
      if (r + 1 < rows && keepV[v]) colIdx[w++] = v + cols;
    }
  }
  const g = new CsrMatrix({ rows: n, cols: n, rowPtr, colIdx, symmetric: true });
  return weights === undefined ? g : withWeights(g, seed, weights);
}
