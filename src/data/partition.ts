// Partitioning a square sparse matrix (a graph) by rows for distributed operators: contiguous row
// blocks balanced by work (each row costs its entries plus one, for the row's own loop), or METIS
// k-way partitions (vertices weighted by the same work) that cut fewer edges where the build found
// METIS; and what a partition costs in communication: the edge cut (entries whose column another
// part owns) and each part's halo (the distinct remote columns, i.e. rows of X or frontier bits,
// it must receive before its rows can be computed). The first step of issue 26.

import { describe, InvalidArgumentError, UnsupportedError } from '../errors.js';
import { nativeAddon } from '../native/addon.js';
import { dropSelfLoops, symmetrize } from './convert.js';
import { checkInt } from '../validate.js';
import { CsrMatrix } from './csr.js';

/** A partition of the rows into `parts` parts. */
export interface RowPartition {
  readonly parts: number;
  readonly method: 'rows' | 'metis';
  /** Each row's part. */
  readonly owner: Int32Array;
  /** Contiguous blocks (`rows`): part p owns rows [bounds[p], bounds[p + 1]). */
  readonly bounds?: Int32Array;
  /** Each part's target share of the work, where it was not an equal one (they sum to 1). */
  readonly weights?: Float64Array;
}

/** Options of the partitioners. */
export interface PartitionOptions {
  /**
   * Each part's share of the work (entries plus rows), any positive scale: a node predicted twice
   * as fast takes twice the rows' work (`planNodes`). @default equal shares
   */
  readonly weights?: readonly number[];
}

export interface PartStats {
  readonly rows: number;
  readonly entries: number;
  /** Entries of this part's rows whose column another part owns. */
  readonly cutEntries: number;
  /** Distinct columns owned by other parts that this part's rows reference. */
  readonly halo: number;
  /** Rows of this part that other parts reference, counted once per part reading them: what it sends per exchange. */
  readonly sends: number;
  /** Parts this part exchanges with (it reads from them, or they from it). */
  readonly peers: number;
}

export interface PartitionStats {
  readonly parts: readonly PartStats[];
  /** Entries whose row and column belong to different parts (each counted once, by its row). */
  readonly edgeCut: number;
  /** Sum of the halos: rows of X (or frontier entries) sent per exchange. */
  readonly haloTotal: number;
  /** Largest part's work (entries + rows) over the mean: 1 is perfect balance. */
  readonly imbalance: number;
}

const MAX_PARTS = 1 << 20;

function checkSquare(fn: string, a: unknown): CsrMatrix {
  if (!(a instanceof CsrMatrix)) throw new InvalidArgumentError(`${fn}: a must be a CsrMatrix, got ${describe(a)}`);
  if (a.rows !== a.cols) throw new InvalidArgumentError(`${fn}: a must be square (a graph's adjacency matrix), got ${a.rows}x${a.cols}`);
  return a;
}

function checkParts(fn: string, parts: unknown): void {
  if (!Number.isInteger(parts) || (parts as number) < 1 || (parts as number) > MAX_PARTS) {
    throw new InvalidArgumentError(`${fn}: parts must be an integer in [1, ${MAX_PARTS}], got ${describe(parts)}`);
  }
}

/** The parts' target shares, normalised to sum to 1; undefined for equal shares. */
function checkWeights(fn: string, parts: number, weights: unknown): Float64Array | undefined {
  if (weights === undefined) return undefined;
  if (!Array.isArray(weights) || weights.length !== parts || weights.some((w) => typeof w !== 'number' || !(w > 0) || !Number.isFinite(w)))
    throw new InvalidArgumentError(`${fn}: weights must be ${parts} positive finite numbers (one per part), got ${describe(weights)}`);
  const sum = (weights as number[]).reduce((s, w) => s + w, 0);
  return Float64Array.from(weights as number[], (w) => w / sum);
}

/**
 * Contiguous row blocks of about equal work (or of the given shares of it), work being a row's
 * entries plus one.
 * @throws {InvalidArgumentError} for a matrix that is not square, `parts` not an integer in
 *   [1, 2^20], or weights that are not `parts` positive numbers.
 * @example
 * const p = partitionRows(graph, 4);
 * p.bounds;   // Int32Array [0, r1, r2, r3, rows]
 */
export function partitionRows(a: CsrMatrix, parts: number, options: PartitionOptions = {}): RowPartition {
  const fn = 'partitionRows';
  checkSquare(fn, a);
  checkParts(fn, parts);
  const weights = checkWeights(fn, parts, options.weights);
  const n = a.rows;
  const work = (r: number): number => a.rowStart(r) + r; // work of rows [0, r)
  const total = work(n);
  const bounds = new Int32Array(parts + 1);
  bounds[parts] = n;
  let before = 0;
  for (let p = 1; p < parts; p++) {
    // The first row boundary whose work before it reaches the first p parts' share of the total (work is monotone).
    before += weights ? weights[p - 1]! : 1 / parts;
    const target = total * before;
    let lo = bounds[p - 1]!;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (work(mid) < target) lo = mid + 1;
      else hi = mid;
    }
    // The nearer of the two boundaries around the target.
    if (lo > bounds[p - 1]! && target - work(lo - 1) < work(lo) - target) lo--;
    bounds[p] = lo;
  }
  const owner = new Int32Array(n);
  for (let p = 0; p < parts; p++) owner.fill(p, bounds[p]!, bounds[p + 1]!);
  return { parts, method: 'rows', owner, bounds, ...(weights ? { weights } : {}) };
}

/** Whether this build can partition with METIS, and why not. */
export function metisAvailable(): { available: boolean; reason: string } {
  return nativeAddon().metisInfo();
}

/**
 * A METIS k-way partition of the graph (made symmetric, without self loops), vertices weighted by
 * their work (entries + 1), each part taking an equal share of it or the share `weights` gives it.
 * Runs on the calling thread.
 * @throws {UnsupportedError} where the build has no METIS (the message says why);
 *   {InvalidArgumentError} for a matrix that is not square, `parts` not an integer in [1, 2^20],
 *   or weights that are not `parts` positive numbers.
 */
export function partitionMetis(a: CsrMatrix, parts: number, options: { readonly seed?: number } & PartitionOptions = {}): RowPartition {
  const fn = 'partitionMetis';
  checkSquare(fn, a);
  checkParts(fn, parts);
  const weights = checkWeights(fn, parts, options.weights);
  const seed = options.seed ?? 1;
  if (!Number.isInteger(seed) || seed < 0 || seed > 2 ** 31 - 1)
    throw new InvalidArgumentError(`${fn}: seed must be an integer in [0, 2^31 - 1], got ${describe(seed)}`);
  const info = metisAvailable();
  if (!info.available) throw new UnsupportedError(`${fn}: METIS is not available: ${info.reason}`);
  const g = dropSelfLoops(symmetrize(a));
  if (!(g.rowPtr instanceof Int32Array)) throw new UnsupportedError(`${fn}: the graph has ${g.nnz} entries made symmetric, beyond METIS's 32-bit indices`);
  const owner = new Int32Array(a.rows);
  nativeAddon().metisPartition(a.rows, g.rowPtr, g.colIdx, parts, seed, owner, weights ?? null);
  return { parts, method: 'metis', owner, ...(weights ? { weights } : {}) };
}

/**
 * What `partition` costs on `a`: each part's rows, entries, cut entries, halo, sends and peers,
 * the edge cut, the total halo and the work imbalance. One pass over the entries.
 * @throws {InvalidArgumentError} for a matrix that is not square or an owner array that does not partition its rows.
 */
export function partitionStats(a: CsrMatrix, partition: RowPartition): PartitionStats {
  const fn = 'partitionStats';
  checkSquare(fn, a);
  if (partition === null || typeof partition !== 'object')
    throw new InvalidArgumentError(`${fn}: partition must be a RowPartition { parts, owner }, got ${describe(partition)}`);
  const { parts, owner } = partition;
  // More parts than rows leaves some empty (ranks with no rows); a count far past any machine is refused.
  checkInt(fn, 'partition.parts', parts, 1, Math.max(a.rows, 1 << 20));
  if (!(owner instanceof Int32Array) || owner.length !== a.rows) {
    throw new InvalidArgumentError(`${fn}: owner must give each of the ${a.rows} rows a part, got ${describe(owner)}`);
  }
  // The rows of each part in order (a counting sort by part), so each part's halo is counted in one sweep.
  const start = new Int32Array(parts + 1);
  for (let r = 0; r < a.rows; r++) {
    const p = owner[r]!;
    if (!(p >= 0 && p < parts)) throw new InvalidArgumentError(`${fn}: row ${r} is given part ${p}, outside [0, ${parts})`);
    start[p + 1]!++;
  }
  for (let p = 0; p < parts; p++) start[p + 1]! += start[p]!;
  const order = new Int32Array(a.rows);
  const fill = start.slice(0, parts);
  for (let r = 0; r < a.rows; r++) order[fill[owner[r]!]!++] = r;
  // seen[c] = 1 + the last part that counted column c in its halo.
  const seen = new Int32Array(a.cols);
  const colIdx = a.colIdx;
  const stats: { rows: number; entries: number; cutEntries: number; halo: number; sends: number; peers: number }[] = [];
  const sends = new Float64Array(parts);
  const peers = new Int32Array(parts);
  // Pairs of parts that exchange, as p * parts + q with p < q (parts * parts stays below 2^53).
  const pairs = new Set<number>();
  let edgeCut = 0;
  let haloTotal = 0;
  let maxWork = 0;
  for (let p = 0; p < parts; p++) {
    let entries = 0;
    let cut = 0;
    let halo = 0;
    for (let k = start[p]!; k < start[p + 1]!; k++) {
      const r = order[k]!;
      const e1 = a.rowStart(r + 1);
      for (let e = a.rowStart(r); e < e1; e++) {
        const c = colIdx[e]!;
        if (owner[c] === p) continue;
        cut++;
        if (seen[c] !== p + 1) {
          seen[c] = p + 1;
          halo++;
          const q = owner[c]!;
          sends[q]!++;
          const pair = p < q ? p * parts + q : q * parts + p;
          if (!pairs.has(pair)) {
            pairs.add(pair);
            peers[p]!++;
            peers[q]!++;
          }
        }
      }
      entries += e1 - a.rowStart(r);
    }
    const rows = start[p + 1]! - start[p]!;
    stats.push({ rows, entries, cutEntries: cut, halo, sends: 0, peers: 0 });
    edgeCut += cut;
    haloTotal += halo;
    maxWork = Math.max(maxWork, entries + rows);
  }
  stats.forEach((st, p) => {
    st.sends = sends[p]!;
    st.peers = peers[p]!;
  });
  const mean = (a.nnz + a.rows) / parts;
  return { parts: stats, edgeCut, haloTotal, imbalance: mean > 0 ? maxWork / mean : 1 };
}
