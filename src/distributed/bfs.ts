// Distributed breadth-first search over a row-partitioned graph, level-synchronous and
// direction-optimising (Beamer et al., SC 2012) across ranks. Each rank owns its vertices' depths.
// The exchanges and the choice of direction are here; a level's work over the rank's rows is in
// bfs-steps.ts (natively on the rank's thread pool where the level is wide).
// A top-down level expands the rank's frontier; an edge to a vertex another rank owns is sent to
// that owner as the vertex's position in the halo segment the two share (4 bytes), at most once
// per search, since a vertex reached once needs no second message. A bottom-up level lets each
// unvisited vertex look for a parent in the frontier; the frontier flags of the halo come by the
// same exchange as SpMM's halo (one bit per halo row), not as an allgather of the whole bitmap.
// The direction is chosen from global counts (one allreduce a level): bottom-up when the
// frontier grows and its edges exceed the unvisited vertices' edges / alpha, back top-down when
// it shrinks under n / beta. Bottom-up levels need a symmetric pattern; other graphs search top-down.

import { describe, InvalidArgumentError } from '../errors.js';
import { checkOptions } from '../validate.js';
import { bottomUpStep, type RankRows, topDownStep } from './bfs-steps.js';
import type { DistributedCsr } from './halo.js';
import { type ExchangeSpan, spanOf } from './exchange-timing.js';
import type { Communicator } from './mpi.js';

export interface DistributedBfsOptions {
  /** `auto` (direction-optimising; top-down only where the pattern is not symmetric), or one direction throughout. @default 'auto' */
  readonly direction?: 'auto' | 'top-down' | 'bottom-up';
  /** Beamer's alpha: go bottom-up when frontier edges > unvisited edges / alpha. @default 14 */
  readonly alpha?: number;
  /** Beamer's beta: go back top-down when the frontier < vertices / beta. @default 24 */
  readonly beta?: number;
}

/** One level of a distributed search, as this rank saw it. */
export interface DistributedLevel {
  readonly direction: 'top-down' | 'bottom-up';
  /** Vertices in the frontier, over all ranks. */
  readonly frontier: number;
  /** Bytes of vertices and frontier bits this rank sent in the level's exchange. */
  readonly bytesSent: number;
  /** Bytes of message counts this rank sent (on top-down levels one 32-bit count to each rank it can send vertices to). */
  readonly controlBytes: number;
  /** Seconds this rank spent in the level's collective exchanges (waiting for the others included; packing and the search's own work not). */
  readonly exchangeSeconds: number;
  /** When this rank entered the level's exchange and saw it complete (where the communicator stamps them): exchange-timing.ts splits off the wait. */
  readonly exchangeSpan?: ExchangeSpan;
}

export interface DistributedSearch {
  /** Depth of each of this rank's vertices, in `dist.rows` order (-1: unreached). */
  readonly depths: Int32Array;
  readonly levels: readonly DistributedLevel[];
  readonly seconds: number;
}

/**
 * Depths from `source` (a global vertex id) over every rank's vertices, collectively.
 * @throws {InvalidArgumentError} on a source outside the graph, bad options, or `bottom-up` on a
 *   graph whose pattern is not symmetric.
 * @example
 * const { depths } = await distributedBfs(comm, dist, 0);
 * const all = await gatherRows(comm, dist, depths);   // Int32Array: every vertex's depth
 */
export async function distributedBfs(
  comm: Communicator,
  dist: DistributedCsr,
  source: number,
  options: DistributedBfsOptions = {},
): Promise<DistributedSearch> {
  const fn = 'distributedBfs';
  const opts = checkOptions(fn, options, ['direction', 'alpha', 'beta']);
  const n = dist.globalRows;
  if (!Number.isInteger(source) || source < 0 || source >= n)
    throw new InvalidArgumentError(`${fn}: source must be a vertex in [0, ${n - 1}], got ${describe(source)}`);
  const direction = opts.direction ?? 'auto';
  if (!['auto', 'top-down', 'bottom-up'].includes(direction))
    throw new InvalidArgumentError(`${fn}: direction must be 'auto', 'top-down' or 'bottom-up', got ${describe(direction)}`);
  if (direction === 'bottom-up' && !dist.symmetric)
    throw new InvalidArgumentError(
      `${fn}: bottom-up steps read rows as in-edges, which needs a symmetric pattern; this graph is not (symmetrize it, or search top-down)`,
    );
  const alpha = positive(fn, 'alpha', opts.alpha ?? DEFAULT_ALPHA);
  const beta = positive(fn, 'beta', opts.beta ?? DEFAULT_BETA);
  const t0 = performance.now();
  const { local, send, recv, sendRows } = dist;
  const own = dist.localRows;
  const rp = dist.localRowPtr;
  const halo = dist.halo.length;
  const rankRows: RankRows = { own, halo, rowPtr: rp, colIdx: local.colIdx };
  const depths = new Int32Array(own).fill(-1);
  // Two frontier buffers, swapped each level: a fresh one per level was a rank's whole vertex
  // count of new pages (2 MB a level on Kronecker 20 at two ranks) ahead of every exchange.
  let frontier = new Int32Array(own);
  let spare = new Int32Array(own);
  let frontierSize = 0;
  const sourceLocal = dist.rows.indexOf(source);
  if (sourceLocal >= 0) {
    depths[sourceLocal] = 0;
    frontier[frontierSize++] = sourceLocal;
  }
  const { haloOwner, countsOut, countsIn, countPlaces, peersOut } = dist.vertexRoutes;
  const haloSent = new Uint8Array(halo);
  const outbox = new Int32Array(halo);
  const inFrontier = new Uint8Array(own);
  const haloFrontier = new Uint8Array(halo);
  // Frontier bits of the halo, packed per rank pair: rank r's segment takes ceil(count / 8) bytes.
  const bitsOf = (counts: Int32Array) => {
    const c = counts.map((x) => (x + 7) >> 3);
    const d = new Int32Array(c.length);
    for (let r = 1; r < c.length; r++) d[r] = d[r - 1]! + c[r - 1]!;
    return { counts: c, displs: d, bytes: c.length ? d[c.length - 1]! + c[c.length - 1]! : 0 };
  };
  const sendBits = bitsOf(send.counts);
  const recvBits = bitsOf(recv.counts);
  const bitsOut = new Uint8Array(sendBits.bytes);
  const bitsIn = new Uint8Array(recvBits.bytes);
  let unvisitedEdges = 0;
  for (let v = 0; v < own; v++) unvisitedEdges += rp[v + 1]! - rp[v]!;
  let bottomUp = direction === 'bottom-up';
  const levels: DistributedLevel[] = [];
  let previousFrontier = 0;
  for (let level = 0; ; level++) {
    let frontierEdges = 0;
    for (let f = 0; f < frontierSize; f++) frontierEdges += rp[frontier[f]! + 1]! - rp[frontier[f]!]!;
    unvisitedEdges -= frontierEdges;
    const counts = Float64Array.of(frontierSize, frontierEdges, unvisitedEdges);
    await comm.allreduce(counts, 'sum');
    const [globalFrontier, globalFrontierEdges, globalUnvisitedEdges] = counts as unknown as [number, number, number];
    if (globalFrontier === 0) break;
    // Beamer's rule: bottom-up while the frontier grows past the edges left / alpha; back
    // top-down once it shrinks under n / beta. A shrinking frontier never turns bottom-up: near
    // the end few edges are left, and a bottom-up level costs every halo's frontier bits.
    if (direction === 'auto' && dist.symmetric)
      bottomUp = goesBottomUp(bottomUp, globalFrontier, previousFrontier, globalFrontierEdges, globalUnvisitedEdges, n, alpha, beta);
    previousFrontier = globalFrontier;
    const next = spare;
    let nextSize = 0;
    let bytesSent = 0;
    if (bottomUp) {
      // The halo's frontier flags, by the SpMM halo's send lists.
      inFrontier.fill(0);
      for (let f = 0; f < frontierSize; f++) inFrontier[frontier[f]!] = 1;
      bitsOut.fill(0);
      for (let r = 0; r < comm.size; r++)
        for (let j = 0, base = send.displs[r]!; j < send.counts[r]!; j++)
          if (inFrontier[sendRows[base + j]!] === 1) bitsOut[sendBits.displs[r]! + (j >> 3)]! |= 1 << (j & 7);
      const t1 = performance.now();
      const bits = await comm.alltoallv(bitsOut, sendBits.counts, sendBits.displs, bitsIn, recvBits.counts, recvBits.displs);
      const exchanged = performance.now();
      const span = spanOf(bits);
      for (let r = 0; r < comm.size; r++)
        for (let j = 0, base = recv.displs[r]!; j < recv.counts[r]!; j++) haloFrontier[base + j] = (bitsIn[recvBits.displs[r]! + (j >> 3)]! >> (j & 7)) & 1;
      bytesSent = bitsOut.length;
      nextSize = await bottomUpStep(rankRows, { depths, inFrontier, haloFrontier, level, next }, unvisitedEdges);
      levels.push({
        direction: 'bottom-up',
        frontier: globalFrontier,
        bytesSent,
        controlBytes: 0,
        exchangeSeconds: (exchanged - t1) / 1000,
        ...(span ? { exchangeSpan: span } : {}),
      });
    } else {
      // Expand; remote vertices are sent once per search to their owners, as segment positions.
      const step = await topDownStep(rankRows, { depths, frontier, frontierSize, haloSent, level, next, outbox }, frontierEdges);
      nextSize = step.nextSize;
      const outCounts = new Int32Array(comm.size);
      for (let i = 0; i < step.outSize; i++) outCounts[haloOwner[outbox[i]!]!]!++;
      // Group by owner (halo positions of one owner are one contiguous range, so a counting sort).
      const outDispls = new Int32Array(comm.size);
      for (let r = 1; r < comm.size; r++) outDispls[r] = outDispls[r - 1]! + outCounts[r - 1]!;
      const cursor = outDispls.slice();
      const out = new Int32Array(step.outSize);
      for (let i = 0; i < step.outSize; i++) {
        const h = outbox[i]!;
        const r = haloOwner[h]!;
        out[cursor[r]!++] = h - recv.displs[r]!;
      }
      const inCounts = new Int32Array(comm.size);
      const t1 = performance.now();
      const first = await comm.alltoallv(outCounts, countsOut, countPlaces, inCounts, countsIn, countPlaces);
      const inDispls = new Int32Array(comm.size);
      for (let r = 1; r < comm.size; r++) inDispls[r] = inDispls[r - 1]! + inCounts[r - 1]!;
      const incoming = new Int32Array(inDispls[comm.size - 1]! + inCounts[comm.size - 1]!);
      const last = await comm.alltoallv(out, outCounts, outDispls, incoming, inCounts, inDispls);
      bytesSent = out.byteLength;
      const exchanged = performance.now();
      const span = spanOf(first, last);
      for (let r = 0; r < comm.size; r++)
        for (let i = inDispls[r]!; i < inDispls[r]! + inCounts[r]!; i++) {
          const pos = incoming[i]!;
          if (pos < 0 || pos >= send.counts[r]!)
            throw new InvalidArgumentError(`${fn}: rank ${r} sent halo position ${pos}, outside its segment of ${send.counts[r]}`);
          const v = sendRows[send.displs[r]! + pos]!;
          if (depths[v] === -1) {
            depths[v] = level + 1;
            next[nextSize++] = v;
          }
        }
      levels.push({
        direction: 'top-down',
        frontier: globalFrontier,
        bytesSent,
        controlBytes: 4 * peersOut,
        exchangeSeconds: (exchanged - t1) / 1000,
        ...(span ? { exchangeSpan: span } : {}),
      });
    }
    spare = frontier;
    frontier = next;
    frontierSize = nextSize;
  }
  return { depths, levels, seconds: (performance.now() - t0) / 1000 };
}

export const DEFAULT_ALPHA = 14;
export const DEFAULT_BETA = 24;

/**
 * Beamer's rule across ranks, from global counts: bottom-up while the frontier grows past the
 * edges left / alpha; back top-down once it shrinks under n / beta. Shared with the exchange
 * prediction (bfs-prediction.ts), which must take the same directions.
 */
export function goesBottomUp(
  bottomUp: boolean,
  frontier: number,
  previous: number,
  frontierEdges: number,
  unvisitedEdges: number,
  n: number,
  alpha: number,
  beta: number,
): boolean {
  if (!bottomUp && frontier > previous && frontierEdges > unvisitedEdges / alpha) return true;
  if (bottomUp && frontier < previous && frontier < n / beta) return false;
  return bottomUp;
}

/** A positive finite number, or a typed error naming the option. */
export function positive(fn: string, name: string, v: unknown): number {
  if (typeof v !== 'number' || !(v > 0) || !Number.isFinite(v)) throw new InvalidArgumentError(`${fn}: ${name} must be a positive number, got ${describe(v)}`);
  return v;
}
