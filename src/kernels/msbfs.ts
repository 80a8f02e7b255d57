// Multi-source BFS on the CPU: many searches share one traversal, 64 sources per machine word.

import type { CsrMatrix } from '../data/csr.js';
import { MAX_DENSE_ELEMENTS } from '../data/dense.js';
import { describe, InvalidArgumentError, LimitError } from '../errors.js';
import { checkMemory } from '../limits.js';
import { inlineMode, nativeAddon } from '../native/addon.js';
import { checkOptions, overlaps } from '../validate.js';
import { callNative } from './native-call.js';
import { checkGraph, inEdgesOf } from './in-edges.js';

export interface MsBfsOptions {
  /** The graph's transpose for directed graphs (computed and cached when absent). */
  readonly inEdges?: CsrMatrix;
  /**
   * Write the depths into this array of `sources.length x n` instead of allocating: repeated
   * searches then skip the page faults of fresh memory (64 rows of a 115,000-vertex graph are
   * 29 MB). Fully overwritten; returned as `depths`.
   */
  readonly out?: Int32Array;
}

export interface MsBfsResult {
  /** `sources.length x n`, row-major: row s holds the depths from `sources[s]`, -1 where unreachable. */
  readonly depths: Int32Array;
  readonly sources: Int32Array;
  readonly edgesExamined: number;
  /** Wall time of the native search alone, in seconds. */
  readonly seconds: number;
}

/**
 * Breadth-first search from many sources at once.
 *
 * @throws {InvalidArgumentError} when a source is not a vertex or the graph is not square.
 * @throws {LimitError} when `sources.length * n` depths cannot be allocated.
 * @example
 * const { depths } = await msbfs(graph, [0, 10, 20]);
 * depths[1 * graph.rows + 10]; // 0: source 10 is at depth 0 from itself
 */
export async function msbfs(graph: CsrMatrix, sources: Int32Array | readonly number[], options?: MsBfsOptions): Promise<MsBfsResult> {
  const fn = 'msbfs';
  const opts = checkOptions(fn, options, ['inEdges', 'out']);
  const g = checkGraph(fn, graph);
  if (!(sources instanceof Int32Array) && !Array.isArray(sources)) {
    throw new InvalidArgumentError(`${fn}: sources must be an Int32Array or an array of vertex ids, got ${describe(sources)}`);
  }
  const src = Int32Array.from(sources as ArrayLike<number>);
  for (let i = 0; i < src.length; i++) {
    const s = (sources as ArrayLike<number>)[i];
    if (typeof s !== 'number' || !Number.isInteger(s) || s < 0 || s >= g.rows) {
      throw new InvalidArgumentError(`${fn}: sources[${i}] = ${describe(s)} is not a vertex of a graph with ${g.rows} vertices`);
    }
  }
  const total = src.length * g.rows;
  if (total > MAX_DENSE_ELEMENTS) {
    throw new LimitError(`${fn}: ${src.length} sources x ${g.rows} vertices = ${total} depths is more than one array can hold`);
  }
  checkMemory(fn, `${src.length} sources x ${g.rows} vertices of depths`, total * 4);
  const inEdges = inEdgesOf(fn, g, opts.inEdges);
  const depths = opts.out === undefined ? new Int32Array(total) : checkOut(fn, opts.out, src.length, g, inEdges);
  const addon = nativeAddon();
  const stats = await callNative(fn, () =>
    addon.msbfs(g.rows, g.rowPtr, g.colIdx, inEdges.rowPtr, inEdges.colIdx, src, depths, inlineMode((g.rows + g.nnz) * Math.ceil(src.length / 64))),
  );
  return { depths, sources: src, edgesExamined: stats.edgesExamined, seconds: stats.seconds };
}

/** A caller's output array: an Int32Array of `count x n` that shares no memory with the graph's arrays. */
function checkOut(fn: string, out: unknown, count: number, g: CsrMatrix, inEdges: CsrMatrix): Int32Array {
  const total = count * g.rows;
  if (!(out instanceof Int32Array) || out.length !== total) {
    throw new InvalidArgumentError(`${fn}: out must be an Int32Array of ${count} sources x ${g.rows} vertices = ${total} depths, got ${describe(out)}`);
  }
  for (const arr of [g.rowPtr, g.colIdx, inEdges.rowPtr, inEdges.colIdx]) {
    if (overlaps(out, arr)) throw new InvalidArgumentError(`${fn}: out must not share memory with the graph's arrays`);
  }
  return out;
}
