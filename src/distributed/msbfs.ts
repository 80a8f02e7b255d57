// Distributed multi-source BFS over a row-partitioned graph: the searches of up to 32 sources run
// together, level-synchronous across ranks, each vertex holding a 32-bit mask of the sources that
// have reached it (bit-parallel, as Then et al.'s MS-BFS, VLDB 2015, does on one machine). A level
// expands every vertex in some source's frontier once for all of its sources; an edge to a vertex
// another rank owns adds the sources new to it (those this rank has not yet sent it) to one mask
// per halo vertex, and the owners receive each such vertex once a level as its position in the
// halo segment the two share and its mask (8 bytes), after a 4-byte count to each rank it can send
// to. Where 32 single searches would send a remote vertex once per source, a batch sends it once
// per level in which new sources reach it. Top-down only: a bottom-up step would need every
// unreached (vertex, source) pair's parents, which on a batch is most of the graph every level.

import { describe, InvalidArgumentError } from '../errors.js';
import { type ExchangeSpan, spanOf } from './exchange-timing.js';
import { type DistributedCsr, layoutOf } from './halo.js';
import type { Communicator } from './mpi.js';

/** Sources searched together (the bits of a mask). */
export const MSBFS_BATCH = 32;

/** One level of a batch, as this rank saw it. */
export interface MsbfsLevel {
  /** The batch (0 for sources 0-31, 1 for 32-63, ...). */
  readonly batch: number;
  /** Vertices in some source's frontier, over all ranks. */
  readonly frontier: number;
  /** Bytes of (halo position, mask) pairs this rank sent. */
  readonly bytesSent: number;
  /** Bytes of message counts this rank sent. */
  readonly controlBytes: number;
  /** Seconds this rank spent in the level's exchanges (waiting for the others included). */
  readonly exchangeSeconds: number;
  readonly exchangeSpan?: ExchangeSpan;
}

export interface DistributedMultiSearch {
  /** Per source, the depth of each of this rank's vertices in `dist.rows` order (-1: unreached). */
  readonly depths: Int32Array[];
  readonly levels: readonly MsbfsLevel[];
  readonly seconds: number;
}

/**
 * Depths from every source (global vertex ids) over every rank's vertices, collectively, the
 * sources in batches of 32.
 * @throws {InvalidArgumentError} on a source outside the graph or an empty source list.
 * @example
 * const { depths } = await distributedMsbfs(comm, dist, [0, 17, 99]);
 * const fromFirst = await gatherVertices(comm, dist, depths[0]);
 */
export async function distributedMsbfs(comm: Communicator, dist: DistributedCsr, sources: readonly number[]): Promise<DistributedMultiSearch> {
  const fn = 'distributedMsbfs';
  const n = dist.globalRows;
  if (!Array.isArray(sources) || sources.length === 0)
    throw new InvalidArgumentError(`${fn}: sources must be a non-empty array of vertices, got ${describe(sources)}`);
  sources.forEach((s, i) => {
    if (!Number.isInteger(s) || s < 0 || s >= n) throw new InvalidArgumentError(`${fn}: sources[${i}] must be a vertex in [0, ${n - 1}], got ${describe(s)}`);
  });
  const t0 = performance.now();
  const own = dist.localRows;
  const depths = sources.map(() => new Int32Array(own).fill(-1));
  const levels: MsbfsLevel[] = [];
  const localOf = new Map<number, number>();
  dist.rows.forEach((v, i) => localOf.set(v, i));
  for (let b = 0; b * MSBFS_BATCH < sources.length; b++) {
    const batch = sources.slice(b * MSBFS_BATCH, (b + 1) * MSBFS_BATCH);
    await searchBatch(comm, dist, batch, localOf, depths.slice(b * MSBFS_BATCH, (b + 1) * MSBFS_BATCH), b, levels, fn);
  }
  return { depths, levels, seconds: (performance.now() - t0) / 1000 };
}

async function searchBatch(
  comm: Communicator,
  dist: DistributedCsr,
  batch: readonly number[],
  localOf: ReadonlyMap<number, number>,
  depths: Int32Array[],
  batchIndex: number,
  levels: MsbfsLevel[],
  fn: string,
): Promise<void> {
  const { send, recv, sendRows } = dist;
  const own = dist.localRows;
  const halo = dist.halo.length;
  const rp = dist.localRowPtr;
  const ci = dist.local.colIdx;
  const seen = new Uint32Array(own);
  let frontier = new Uint32Array(own);
  let next = new Uint32Array(own);
  let active: number[] = [];
  batch.forEach((s, bit) => {
    const v = localOf.get(s);
    if (v === undefined) return;
    if (seen[v] === 0) active.push(v);
    seen[v]! |= 1 << bit;
    frontier[v]! |= 1 << bit;
    depths[bit]![v] = 0;
  });
  // The sources already sent for each halo vertex, and this level's new ones.
  const { haloOwner, countsOut, countsIn, countPlaces, peersOut } = dist.vertexRoutes;
  const haloSent = new Uint32Array(halo);
  const haloNew = new Uint32Array(halo);
  // A mask from another rank is kept to this batch's sources.
  const valid = batch.length === MSBFS_BATCH ? 0xffffffff : (1 << batch.length) - 1;
  for (let level = 0; ; level++) {
    const count = Float64Array.of(active.length);
    await comm.allreduce(count, 'sum');
    if (count[0] === 0) break;
    const reached: number[] = [];
    const outbox: number[] = [];
    const add = (v: number, mask: number): void => {
      const fresh = mask & ~seen[v]!;
      if (fresh === 0) return;
      if (next[v] === 0) reached.push(v);
      seen[v]! |= fresh;
      next[v]! |= fresh;
    };
    for (const v of active) {
      const m = frontier[v]!;
      for (let e = rp[v]!; e < rp[v + 1]!; e++) {
        const c = ci[e]!;
        if (c < own) add(c, m);
        else {
          const h = c - own;
          const fresh = m & ~haloSent[h]!;
          if (fresh === 0) continue;
          if (haloNew[h] === 0) outbox.push(h);
          haloSent[h]! |= fresh;
          haloNew[h]! |= fresh;
        }
      }
      frontier[v] = 0;
    }
    // (position in the shared segment, mask) pairs grouped by owner: counts first, then the pairs.
    const outCounts = new Int32Array(comm.size);
    for (const h of outbox) outCounts[haloOwner[h]!]! += 2;
    const outDispls = layoutOf(outCounts).displs;
    const cursor = outDispls.slice();
    const out = new Int32Array(2 * outbox.length);
    for (const h of outbox) {
      const r = haloOwner[h]!;
      out[cursor[r]!++] = h - recv.displs[r]!;
      out[cursor[r]!++] = haloNew[h]! | 0;
      haloNew[h] = 0;
    }
    const inCounts = new Int32Array(comm.size);
    const t1 = performance.now();
    const first = await comm.alltoallv(outCounts, countsOut, countPlaces, inCounts, countsIn, countPlaces);
    const inDispls = layoutOf(inCounts).displs;
    const incoming = new Int32Array(inDispls[comm.size - 1]! + inCounts[comm.size - 1]!);
    const last = await comm.alltoallv(out, outCounts, outDispls, incoming, inCounts, inDispls);
    const exchanged = performance.now();
    for (let r = 0; r < comm.size; r++) {
      if (inCounts[r]! % 2 !== 0) throw new InvalidArgumentError(`${fn}: rank ${r} sent ${inCounts[r]} integers, not (position, mask) pairs`);
      for (let i = inDispls[r]!; i < inDispls[r]! + inCounts[r]!; i += 2) {
        const pos = incoming[i]!;
        if (pos < 0 || pos >= send.counts[r]!)
          throw new InvalidArgumentError(`${fn}: rank ${r} sent halo position ${pos}, outside its segment of ${send.counts[r]}`);
        add(sendRows[send.displs[r]! + pos]!, (incoming[i + 1]! & valid) >>> 0);
      }
    }
    for (const v of reached)
      for (let m = next[v]!; m !== 0; m &= m - 1) {
        depths[31 - Math.clz32(m & -m)]![v] = level + 1;
      }
    const span = spanOf(first, last);
    levels.push({
      batch: batchIndex,
      frontier: count[0]!,
      bytesSent: out.byteLength,
      controlBytes: 4 * peersOut,
      exchangeSeconds: (exchanged - t1) / 1000,
      ...(span ? { exchangeSpan: span } : {}),
    });
    [frontier, next] = [next, frontier];
    active = reached;
  }
}
