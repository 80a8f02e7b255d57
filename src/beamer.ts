// Beamer's direction-optimising BFS switches between top-down and bottom-up steps by two
// thresholds; every layer that runs, replays or prices such a search uses these, so a search
// and its prediction never follow different rules. One exception: the CPU's own search takes a
// lower alpha on graphs whose depth array is cache-resident (cpuBeamerAlpha), where the
// cost model's graph features still replay 15; its fitted CPU terms absorb the difference.

/**
 * Go bottom-up when the frontier's out-edges exceed the unexplored edges / alpha (the GAP
 * benchmark's value; Beamer, Asanović and Patterson, SC 2012).
 */
export const BEAMER_ALPHA = 15;

/**
 * Alpha for the CPU's search when the caller gives none. Beamer's 15 prices a top-down edge
 * (a random read of the neighbour's depth, a write where it is new) against a bottom-up one (a
 * bit of the frontier's bitmap, which stays in cache). While the depth array fits in half of a
 * core's L2 a top-down edge costs little more, and 5 switches later: one thread, 16-32 sources,
 * alpha 5 against 15 in one process, 1.14-1.5x on the social graphs (email-Enron 1.38,
 * wiki-Vote 1.5), 1.2-1.4x on pubmed, bayer10 and bcsstk13, no change on roads, meshes,
 * Kronecker 16 and FEM graphs whose searches stay top-down; at two threads 1.03-1.25x. Beyond it
 * (Kronecker 18 and 20) 5 was 0-15% slower, so 15 stays.
 */
export const CPU_SMALL_GRAPH_ALPHA = 5;

/** The CPU search's default alpha for a graph of `vertices` on a core with `l2Bytes` of L2. */
export function cpuBeamerAlpha(vertices: number, l2Bytes: number): number {
  return 4 * vertices <= l2Bytes / 2 ? CPU_SMALL_GRAPH_ALPHA : BEAMER_ALPHA;
}

/** Return top-down when the frontier falls below n / beta vertices. */
export const BEAMER_BETA = 18;
