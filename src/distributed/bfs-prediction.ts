// What a distributed BFS will exchange, predicted before it runs: a level-synchronous search visits
// the same vertex sets level by level whatever the partition, and its direction rule reads only
// global counts, so one serial search and the partition give every rank's bytes at every level:
// on a top-down level each remote vertex a rank's frontier reaches, once per search (4 bytes to
// its owner); on a bottom-up level the frontier bits of every halo row (a byte per 8 rows per rank
// pair); and on top-down levels one 32-bit count to each rank it can send vertices to (the owners
// of its halo). With an interconnect, each level's
// exchange time is the slowest rank's `predictExchange` of those bytes, with the caches as the
// level's work left them (the bytes it passed through them). The rule and the messages
// mirror src/distributed/bfs.ts; test/distributed/bfs-prediction.test.ts holds the two together.

import { CsrMatrix } from '../data/csr.js';
import type { RowPartition } from '../data/partition.js';
import { describe, InvalidArgumentError } from '../errors.js';
import { bfsReference } from '../kernels/reference.js';
import { DEFAULT_ALPHA, DEFAULT_BETA, goesBottomUp, positive } from './bfs.js';
import { rowsSymmetric } from './halo.js';
import { type Interconnect, predictExchange } from './interconnect.js';

export interface BfsPredictionOptions {
  /** As `distributedBfs`'s. @default 'auto' */
  readonly direction?: 'auto' | 'top-down' | 'bottom-up';
  /** @default 14 */
  readonly alpha?: number;
  /** @default 24 */
  readonly beta?: number;
  /** Price each level's exchange on this network (else only bytes are predicted). */
  readonly interconnect?: Interconnect;
}

/** One predicted level: what each rank sends, and (with an interconnect) the exchange's seconds. */
export interface PredictedBfsLevel {
  readonly direction: 'top-down' | 'bottom-up';
  /** Vertices in the frontier, over all ranks. */
  readonly frontier: number;
  /** Bytes of vertices or frontier bits each rank sends (index: rank). */
  readonly bytesSent: Float64Array;
  /** Bytes of message counts each rank sends (index: rank; on a top-down level 4 to each rank owning part of its halo). */
  readonly controlBytes: Float64Array;
  /**
   * Entries each rank's own vertices scan this level (index: rank): a top-down level the
   * frontier's edges, a bottom-up level every unvisited vertex's edges (a bound: a vertex stops at
   * its first parent in the frontier). What `predictBfsScaling` divides a level's compute by.
   */
  readonly work: Float64Array;
  /** The slowest rank's predicted exchange seconds (counts and data), where an interconnect was given. */
  readonly seconds?: number;
}

/**
 * Predict a distributed BFS's exchanges from `source` on `a` (square) under `partition`.
 * @throws {InvalidArgumentError} on a matrix that is not square, a partition that does not fit it,
 *   a source outside the graph, bad alpha or beta, or `bottom-up` on a pattern that is not symmetric.
 */
export function predictBfsExchange(a: CsrMatrix, partition: RowPartition, source: number, options: BfsPredictionOptions = {}): PredictedBfsLevel[] {
  const fn = 'predictBfsExchange';
  if (!(a instanceof CsrMatrix) || a.rows !== a.cols) throw new InvalidArgumentError(`${fn}: a must be a square CsrMatrix, got ${describe(a)}`);
  const { owner, parts } = partition;
  if (!(owner instanceof Int32Array) || owner.length !== a.rows || owner.some((p) => !(p >= 0 && p < parts)))
    throw new InvalidArgumentError(`${fn}: partition.owner must give each of the ${a.rows} rows a part in [0, ${parts}), got ${describe(owner)}`);
  const direction = options.direction ?? 'auto';
  if (!['auto', 'top-down', 'bottom-up'].includes(direction))
    throw new InvalidArgumentError(`${fn}: direction must be 'auto', 'top-down' or 'bottom-up', got ${describe(direction)}`);
  const alpha = positive(fn, 'alpha', options.alpha ?? DEFAULT_ALPHA);
  const beta = positive(fn, 'beta', options.beta ?? DEFAULT_BETA);
  const n = a.rows;
  const symmetric = rowsSymmetric(
    a,
    Int32Array.from({ length: n }, (_, r) => r),
  );
  if (direction === 'bottom-up' && !symmetric) throw new InvalidArgumentError(`${fn}: bottom-up steps need a symmetric pattern; this graph is not`);
  const depths = bfsReference(a, source); // checks the source
  const rp = a.rowPtr;
  const ci = a.colIdx;
  const degree = (v: number): number => Number(rp[v + 1]!) - Number(rp[v]!);
  // Vertices by depth.
  let deepest = -1;
  for (let v = 0; v < n; v++) deepest = Math.max(deepest, depths[v]!);
  const byLevel: number[][] = Array.from({ length: deepest + 1 }, () => []);
  for (let v = 0; v < n; v++) if (depths[v]! >= 0) byLevel[depths[v]!]!.push(v);
  // Halo rows each rank pair shares (key p * parts + q: rows of p that q reads), for bottom-up bits.
  const halo = pairCounts(a, owner, parts);
  // Counts on a top-down level: rank q sends one to each rank p whose rows it reads (key p * parts + q).
  const countBytes = new Float64Array(parts);
  for (const key of halo.keys()) countBytes[key % parts]! += 4;
  const net = options.interconnect;
  const countLayout = countLayouts(halo, parts);
  const rows = new Float64Array(parts);
  for (const p of owner) rows[p]!++;
  const sentOnce = new Set<number>(); // c * parts + p: rank p has sent vertex c to its owner
  let unvisitedEdges = a.nnz;
  let bottomUp = direction === 'bottom-up';
  let previous = 0;
  const levels: PredictedBfsLevel[] = [];
  for (let level = 0; level < byLevel.length; level++) {
    const frontier = byLevel[level]!;
    let frontierEdges = 0;
    for (const v of frontier) frontierEdges += degree(v);
    unvisitedEdges -= frontierEdges;
    if (direction === 'auto' && symmetric) bottomUp = goesBottomUp(bottomUp, frontier.length, previous, frontierEdges, unvisitedEdges, n, alpha, beta);
    previous = frontier.length;
    const bytesSent = new Float64Array(parts);
    const work = new Float64Array(parts);
    if (bottomUp) {
      for (let v = 0; v < n; v++) if (depths[v]! < 0 || depths[v]! > level) work[owner[v]!]! += degree(v);
    } else for (const v of frontier) work[owner[v]!]! += degree(v);
    // Elements each rank sends each other rank this level (key p * parts + q).
    const sends = new Map<number, number>();
    if (bottomUp) {
      for (const [key, rows] of halo) {
        const bytes = (rows + 7) >> 3;
        bytesSent[Math.floor(key / parts)]! += bytes;
        sends.set(key, bytes);
      }
    } else {
      for (const v of frontier) {
        const p = owner[v]!;
        for (let e = Number(rp[v]!); e < Number(rp[v + 1]!); e++) {
          const c = ci[e]!;
          const q = owner[c]!;
          if (q === p || sentOnce.has(c * parts + p)) continue;
          sentOnce.add(c * parts + p);
          bytesSent[p]! += 4;
          sends.set(p * parts + q, (sends.get(p * parts + q) ?? 0) + 4);
        }
      }
    }
    // What each rank passed through its caches since its last exchange: the level's scan, the
    // passes over its rows a bottom-up level makes, and before the first level the search's set-up.
    const touched = Array.from(
      work,
      (w, r) => w * SCANNED_ENTRY_BYTES + rows[r]! * ((bottomUp ? BOTTOM_UP_BYTES_PER_ROW : 0) + (level === 0 ? SETUP_BYTES_PER_ROW : 0)),
    );
    const seconds = net ? levelSeconds(sends, bottomUp ? undefined : touched, touched, countLayout, parts, net) : undefined;
    levels.push({
      direction: bottomUp ? 'bottom-up' : 'top-down',
      frontier: frontier.length,
      bytesSent,
      controlBytes: bottomUp ? new Float64Array(parts) : countBytes.slice(),
      work,
      ...(seconds !== undefined ? { seconds } : {}),
    });
  }
  return levels;
}

/** Distinct rows of part p that part q's rows read, for each pair that shares any (key p * parts + q). */
function pairCounts(a: CsrMatrix, owner: Int32Array, parts: number): Map<number, number> {
  const out = new Map<number, number>();
  const counted = new Set<number>(); // c * parts + q
  for (let r = 0; r < a.rows; r++) {
    const q = owner[r]!;
    for (let e = Number(a.rowPtr[r]!); e < Number(a.rowPtr[r + 1]!); e++) {
      const c = a.colIdx[e]!;
      const p = owner[c]!;
      if (p === q || counted.has(c * parts + q)) continue;
      counted.add(c * parts + q);
      out.set(p * parts + q, (out.get(p * parts + q) ?? 0) + 1);
    }
  }
  return out;
}

/** Per rank pair (key p * parts + q, bytes from p to q), each rank's send and receive layout. */
function layouts(bytesByPair: Iterable<readonly [number, number]>, parts: number): { send: Int32Array; recv: Int32Array }[] {
  const out = Array.from({ length: parts }, () => ({ send: new Int32Array(parts), recv: new Int32Array(parts) }));
  for (const [key, bytes] of bytesByPair) {
    const p = Math.floor(key / parts);
    const q = key % parts;
    out[p]!.send[q] = bytes;
    out[q]!.recv[p] = bytes;
  }
  return out;
}

/** Bytes a level's scan touches per entry: its column index and the depth or frontier bit it looks up. */
const SCANNED_ENTRY_BYTES = 8;
/** Bytes per own row a bottom-up level passes over besides its scan: the frontier flags cleared and set, the depths read. */
const BOTTOM_UP_BYTES_PER_ROW = 6;
/** Bytes per own row a search's set-up writes before its first exchange: depths, two frontier buffers, flags. */
const SETUP_BYTES_PER_ROW = 14;

const noDispls = (parts: number): Int32Array => new Int32Array(parts); // predictExchange reads counts only

/** Each rank's count layout on a top-down level: 4 bytes to each owner of rows it reads (`halo`'s pairs). The same every level. */
function countLayouts(halo: ReadonlyMap<number, number>, parts: number): { send: Int32Array; recv: Int32Array }[] {
  // Key p * parts + q in `halo`: q reads p's rows, so q sends p a count.
  return layouts(
    Array.from(halo.keys(), (key) => [(key % parts) * parts + Math.floor(key / parts), 4] as const),
    parts,
  );
}

/**
 * The slowest rank's exchange of `sends` (bytes per rank pair) after `touched` bytes of work (per
 * rank), preceded on a top-down level by its counts' (`countsAfter`: the counts' exchange comes
 * after the scan, the data's at once after it).
 */
function levelSeconds(
  sends: ReadonlyMap<number, number>,
  countsAfter: readonly number[] | undefined,
  touched: readonly number[],
  countLayout: readonly { send: Int32Array; recv: Int32Array }[],
  parts: number,
  net: Interconnect,
): number {
  const d = noDispls(parts);
  const counts = countsAfter
    ? Float64Array.from(countLayout, (l, r) => predictExchange({ counts: l.send, displs: d }, { counts: l.recv, displs: d }, 1, r, net, countsAfter[r]))
    : undefined;
  let slowest = 0;
  layouts(sends, parts).forEach((l, r) => {
    const data = predictExchange({ counts: l.send, displs: d }, { counts: l.recv, displs: d }, 1, r, net, counts ? 0 : touched[r]);
    slowest = Math.max(slowest, data + (counts?.[r] ?? 0));
  });
  return slowest;
}
