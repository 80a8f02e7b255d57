// Single-source BFS on the CPU through the native addon, direction-optimising by default.

import type { CsrMatrix } from '../data/csr.js';
import { checkEnum, checkInt, checkNumber, checkOptions, MAX_INDEX, overlaps } from '../validate.js';
import { inlineMode, nativeAddon } from '../native/addon.js';
import { callNative } from './native-call.js';
import { checkGraph, inEdgesOf } from './in-edges.js';
import { describe, InvalidArgumentError } from '../errors.js';

export type BfsDirection = 'auto' | 'top-down' | 'bottom-up';
const DIRECTIONS: readonly BfsDirection[] = ['auto', 'top-down', 'bottom-up'];

// Beamer's thresholds: the one TypeScript definition is src/beamer.ts (the native side's is
// kBeamerAlpha / kBeamerBeta in native/src/kernels/bfs.h).
import { BEAMER_ALPHA, BEAMER_BETA, cpuBeamerAlpha } from '../beamer.js';

export { BEAMER_ALPHA, BEAMER_BETA };

/** A core's L2, read from the addon once: it does not change while the process runs. */
let l2Cached: number | undefined;
const l2Bytes = (addon: { l2CacheBytes(): number }): number => (l2Cached ??= addon.l2CacheBytes());

export interface BfsOptions {
  /**
   * `'auto'` switches between top-down and bottom-up steps by Beamer's rule; the others force one
   * direction for every level (useful for measuring and testing each).
   * @default 'auto'
   */
  readonly direction?: BfsDirection;
  /** Also return a BFS tree (`parent`). @default false */
  readonly parents?: boolean;
  /**
   * The graph's transpose, for bottom-up steps on a directed graph. Undirected graphs
   * (`symmetric`) need none; otherwise it is computed once per graph and cached.
   */
  readonly inEdges?: CsrMatrix;
  /**
   * Go bottom-up when the frontier's edges exceed the unexplored edges / alpha. @default 5 where
   * the depth array fits in half of a core's L2, else 15 (`cpuBeamerAlpha`, src/beamer.ts)
   */
  readonly alpha?: number;
  /** Return top-down when the frontier falls below n / beta vertices. @default 18 */
  readonly beta?: number;
  /**
   * Write depths (and parents, when `parents` is set) into these arrays of length n instead of
   * allocating: repeated searches then skip the page faults of fresh memory. Fully overwritten.
   */
  readonly out?: { readonly depth: Int32Array; readonly parent?: Int32Array };
  /**
   * Go on with a search in progress instead of starting at `source`: `depth` holds 0..level for
   * the vertices found and -1 for the rest, and the vertices at `level` are expanded next. It is
   * copied into the output first (it may be `out.depth` itself). No parent tree.
   */
  readonly resume?: { readonly depth: Int32Array; readonly level: number };
  /** Stop after this many levels; `complete` then says whether the search ran to its end. */
  readonly maxLevels?: number;
}

/** Result of a BFS. Depths are exact; a parent tree is one valid tree among possibly many. */
export interface BfsResult {
  /** Hops from the source to each vertex, -1 where unreachable. */
  readonly depth: Int32Array;
  /** BFS-tree parent of each vertex (the source is its own parent, -1 where unreachable); when asked for. */
  readonly parent: Int32Array | undefined;
  /**
   * Number of vertices discovered at each depth: `frontier[0] === 1` (the source), or the
   * resumed frontier's size, `frontier[i]` those at depth level + i.
   */
  readonly frontier: Float64Array;
  /** False when `maxLevels` stopped the search with a frontier still to expand. */
  readonly complete: boolean;
  /** For each step producing depth d + 1, whether it ran bottom-up (1) or top-down (0). */
  readonly bottomUp: Uint8Array;
  /** Vertices reached, the source included. */
  readonly reached: number;
  /** Edges examined: the work a TEPS figure divides by time. */
  readonly edgesExamined: number;
  /** Wall time of the native search alone, in seconds (no queueing or async round trip). */
  readonly seconds: number;
}

/**
 * Breadth-first search from `source` along out-edges, on every core.
 *
 * @throws {InvalidArgumentError} when the graph is not a square CsrMatrix, `source` is not a
 *   vertex, or an option is unknown or out of range.
 * @example
 * const { depth, frontier } = await bfs(graph, 0);
 * frontier.length; // number of BFS levels
 */
export async function bfs(graph: CsrMatrix, source: number, options?: BfsOptions): Promise<BfsResult> {
  const fn = 'bfs';
  const opts = checkOptions(fn, options, ['direction', 'parents', 'inEdges', 'alpha', 'beta', 'out', 'resume', 'maxLevels']);
  const g = checkGraph(fn, graph);
  if (g.rows === 0) throw new InvalidArgumentError(`${fn}: the graph has no vertices`);
  checkInt(fn, 'source', source, 0, Math.min(g.rows - 1, MAX_INDEX));
  const direction = opts.direction === undefined ? 'auto' : checkEnum(fn, 'direction', opts.direction, DIRECTIONS);
  const alpha = opts.alpha === undefined ? undefined : checkNumber(fn, 'alpha', opts.alpha, Number.MIN_VALUE);
  const beta = opts.beta === undefined ? BEAMER_BETA : checkNumber(fn, 'beta', opts.beta, Number.MIN_VALUE);
  if (opts.parents !== undefined && typeof opts.parents !== 'boolean') {
    throw new InvalidArgumentError(`${fn}: parents must be a boolean, got ${String(opts.parents)}`);
  }
  const inEdges = direction === 'top-down' ? g : inEdgesOf(fn, g, opts.inEdges);
  const maxLevels = opts.maxLevels === undefined ? 0 : checkInt(fn, 'maxLevels', opts.maxLevels, 1, MAX_INDEX);
  let startLevel = -1;
  const resume = opts.resume;
  if (resume !== undefined) {
    if (resume === null || typeof resume !== 'object') throw new InvalidArgumentError(`${fn}: resume must be { depth, level }, got ${describe(resume)}`);
    checkOptions(`${fn}: resume`, resume, ['depth', 'level']);
    startLevel = checkInt(fn, 'resume.level', resume.level, 0, Math.min(g.rows - 1, MAX_INDEX));
    if (!(resume.depth instanceof Int32Array) || resume.depth.length !== g.rows) {
      throw new InvalidArgumentError(`${fn}: resume.depth must be an Int32Array of length ${g.rows}, got ${describe(resume.depth)}`);
    }
    if (opts.parents === true) throw new InvalidArgumentError(`${fn}: a resumed search cannot build a parent tree (parents: true)`);
  }
  const { depth, parent } = outputs(fn, g.rows, opts.parents === true, opts.out);
  if (resume !== undefined && resume.depth !== depth) depth.set(resume.depth);
  const addon = nativeAddon();
  const stats = await callNative(fn, () =>
    addon.bfs(
      g.rows,
      g.rowPtr,
      g.colIdx,
      inEdges.rowPtr,
      inEdges.colIdx,
      source,
      depth,
      parent ?? null,
      DIRECTIONS.indexOf(direction) as 0 | 1 | 2,
      alpha ?? cpuBeamerAlpha(g.rows, l2Bytes(addon)),
      beta,
      inlineMode(g.rows + g.nnz),
      startLevel,
      maxLevels,
    ),
  );
  let reached = 0;
  for (const f of stats.frontier) reached += f;
  return {
    depth,
    parent,
    frontier: stats.frontier,
    complete: maxLevels === 0 || stats.frontier.length - 1 < maxLevels,
    bottomUp: stats.bottomUp,
    reached,
    edgesExamined: stats.edgesExamined,
    seconds: stats.seconds,
  };
}

function outputs(fn: string, n: number, wantParents: boolean, out: BfsOptions['out']): { depth: Int32Array; parent: Int32Array | undefined } {
  if (out === undefined) return { depth: new Int32Array(n), parent: wantParents ? new Int32Array(n) : undefined };
  if (out === null || typeof out !== 'object') throw new InvalidArgumentError(`${fn}: out must be { depth, parent? }, got ${describe(out)}`);
  const { depth, parent } = out;
  if (!(depth instanceof Int32Array) || depth.length !== n) {
    throw new InvalidArgumentError(`${fn}: out.depth must be an Int32Array of length ${n}, got ${describe(depth)}`);
  }
  if (!wantParents) return { depth, parent: undefined };
  if (parent === undefined) return { depth, parent: new Int32Array(n) };
  if (!(parent instanceof Int32Array) || parent.length !== n) {
    throw new InvalidArgumentError(`${fn}: out.parent must be an Int32Array of length ${n}, got ${describe(parent)}`);
  }
  if (overlaps(depth, parent)) throw new InvalidArgumentError(`${fn}: out.depth and out.parent must not share memory`);
  return { depth, parent };
}
