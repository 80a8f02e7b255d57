// The local work of one distributed BFS level over a rank's rows: columns below `own` are the
// rank's vertices, the next `halo` its halo (remote vertices, as halo positions). A wide level runs
// natively on the thread pool (native/src/kernels/dist_bfs.cc); a thin one, or any on a pool of one
// thread, as the plain loop here, which is also what the native steps are tested and benchmarked
// against (bench/distributed/bfs-steps.ts, 2 December 2026): a native call costs about 6 us more
// than a loop over a few hundred edges (a grid's 900 thin levels took 1.2-1.5x the loop's time
// natively), and on one thread V8's loop ran a Kronecker 18 rank's wide levels as fast as the
// native step (0.93-1.10x); what the native step adds is the pool's other threads.
import { inlineMode, nativeAddon, SINGLE_CHUNK_WORK } from '../native/addon.js';

/** A rank's rows: `own` rows over `own + halo` columns. */
export interface RankRows {
  readonly own: number;
  readonly halo: number;
  readonly rowPtr: Int32Array;
  readonly colIdx: Int32Array;
}

/** Work (edges and vertices) from which a level runs natively. */
export const NATIVE_STEP_WORK = SINGLE_CHUNK_WORK;

/** Whether a level of `work` runs natively: wide enough to repay the call, with pool threads to share it. */
const runsNatively = (work: number): boolean => work >= NATIVE_STEP_WORK && nativeAddon().threads() > 1;

/**
 * A top-down level: unreached own vertices of the frontier's rows get depth level + 1 and fill
 * `next`; halo columns not yet flagged in `haloSent` fill `outbox` (halo positions), once.
 */
export interface TopDownLevel {
  readonly depths: Int32Array;
  readonly frontier: Int32Array;
  readonly frontierSize: number;
  readonly haloSent: Uint8Array;
  readonly level: number;
  readonly next: Int32Array;
  readonly outbox: Int32Array;
}

/** A bottom-up level: each unreached own vertex with a neighbour flagged in `inFrontier` (own rows) or `haloFrontier` gets depth level + 1 and joins `next`. */
export interface BottomUpLevel {
  readonly depths: Int32Array;
  readonly inFrontier: Uint8Array;
  readonly haloFrontier: Uint8Array;
  readonly level: number;
  readonly next: Int32Array;
}

/** What a top-down level found: how much of `next` and of `outbox` it filled. */
export interface TopDownFound {
  readonly nextSize: number;
  readonly outSize: number;
}

/** Run a top-down level; `frontierEdges` (the frontier's edges) chooses the loop or the native step. */
export async function topDownStep(g: RankRows, l: TopDownLevel, frontierEdges: number): Promise<TopDownFound> {
  const work = frontierEdges + l.frontierSize;
  if (!runsNatively(work)) return plainTopDownStep(g, l);
  return nativeAddon().distBfsTopDown(
    g.own,
    g.halo,
    g.rowPtr,
    g.colIdx,
    l.depths,
    l.frontier,
    l.frontierSize,
    l.haloSent,
    l.level,
    l.next,
    l.outbox,
    inlineMode(work),
  );
}

/** Run a bottom-up level; returns how many vertices it reached. `unvisitedEdges` (the rank's edges not yet searched) chooses the loop or the native step. */
export async function bottomUpStep(g: RankRows, l: BottomUpLevel, unvisitedEdges: number): Promise<number> {
  const work = g.own + unvisitedEdges;
  if (!runsNatively(work)) return plainBottomUpStep(g, l);
  return (await nativeAddon().distBfsBottomUp(g.own, g.halo, g.rowPtr, g.colIdx, l.depths, l.inFrontier, l.haloFrontier, l.level, l.next, inlineMode(work)))
    .nextSize;
}

/** The top-down level as a plain loop (the native step's yardstick). */
export function plainTopDownStep(g: RankRows, l: TopDownLevel): TopDownFound {
  const { own, rowPtr, colIdx } = g;
  const { depths, frontier, frontierSize, haloSent, level, next, outbox } = l;
  let nextSize = 0;
  let outSize = 0;
  for (let f = 0; f < frontierSize; f++) {
    const v = frontier[f]!;
    for (let e = rowPtr[v]!; e < rowPtr[v + 1]!; e++) {
      const c = colIdx[e]!;
      if (c < own) {
        if (depths[c] === -1) {
          depths[c] = level + 1;
          next[nextSize++] = c;
        }
      } else if (haloSent[c - own] === 0) {
        haloSent[c - own] = 1;
        outbox[outSize++] = c - own;
      }
    }
  }
  return { nextSize, outSize };
}

/** The bottom-up level as a plain loop (the native step's yardstick). */
export function plainBottomUpStep(g: RankRows, l: BottomUpLevel): number {
  const { own, rowPtr, colIdx } = g;
  const { depths, inFrontier, haloFrontier, level, next } = l;
  let nextSize = 0;
  for (let v = 0; v < own; v++) {
    if (depths[v] !== -1) continue;
    for (let e = rowPtr[v]!; e < rowPtr[v + 1]!; e++) {
      const c = colIdx[e]!;
      if (c < own ? inFrontier[c] === 1 : haloFrontier[c - own] === 1) {
        depths[v] = level + 1;
        next[nextSize++] = v;
        break;
      }
    }
  }
  return nextSize;
}
