// One rank's share of a row-partitioned square sparse matrix, and the exchange its products need.
// The rank keeps its own rows, renumbered: interior rows (every column its own) first, then
// boundary rows (some column owned elsewhere), each in global order; columns are its own rows'
// local numbers followed by the halo, the remote columns it reads, grouped by owning rank in
// global order. X is laid out the same way, so a product's halo arrives by one alltoallv straight
// into the rows after the rank's own, and the interior rows can be computed while it travels.
// Which of its rows each other rank needs is learnt by one exchange of halo indices, not read
// from the other ranks' rows of the matrix.

import { CsrMatrix } from '../data/csr.js';
import { DenseMatrix } from '../data/dense.js';
import type { RowPartition } from '../data/partition.js';
import { describe, InvalidArgumentError } from '../errors.js';
import type { Communicator } from './mpi.js';

/** Per-rank counts and the displacements (prefix sums) that go with them. */
export interface Layout {
  readonly counts: Int32Array;
  readonly displs: Int32Array;
}

export function layoutOf(counts: Int32Array): Layout {
  const displs = new Int32Array(counts.length);
  for (let r = 1; r < counts.length; r++) displs[r] = displs[r - 1]! + counts[r - 1]!;
  return { counts, displs };
}

/** The same layout with every count and displacement multiplied by `k` (rows of k values). */
export function scaled(fn: string, l: Layout, k: number): Layout {
  const counts = new Int32Array(l.counts.length);
  const displs = new Int32Array(l.counts.length);
  for (let r = 0; r < counts.length; r++) {
    const c = l.counts[r]! * k;
    const d = l.displs[r]! * k;
    if (c + d > 0x7fffffff)
      throw new InvalidArgumentError(`${fn}: an exchange of ${l.counts[r]} rows x ${k} values is beyond MPI's 2^31 - 1 elements per call`);
    counts[r] = c;
    displs[r] = d;
  }
  return { counts, displs };
}

/**
 * How the searches send vertices to their owners (bfs.ts, msbfs.ts): the owner rank of each halo
 * position, and a count exchanged only with the ranks a rank can send to (the owners of its halo)
 * and receive from (the ranks whose halo holds its rows): `countsOut` and `countsIn` are 1 for
 * those ranks, `countPlaces` rank r's slot r. A count to every rank made the counts most of what a
 * search sends beyond a few nodes (docs/distributed.md).
 */
export interface VertexRoutes {
  readonly haloOwner: Int32Array;
  readonly countsOut: Int32Array;
  readonly countsIn: Int32Array;
  readonly countPlaces: Int32Array;
  /** Ranks this one sends a count to. */
  readonly peersOut: number;
}

export class DistributedCsr {
  private routes: VertexRoutes | undefined;

  private constructor(
    readonly rank: number,
    readonly size: number,
    /** Global row count of the whole matrix. */
    readonly globalRows: number,
    /** This rank's rows: local rows x (local rows + halo) columns, in local numbering. */
    readonly local: CsrMatrix,
    /** Global id of each local row (interior rows first, then boundary rows). */
    readonly rows: Int32Array,
    /** Local rows [0, interior) read no halo column. */
    readonly interior: number,
    /** Global id of each halo column (local column `local.rows + h`), grouped by owner. */
    readonly halo: Int32Array,
    /** Halo rows received from each rank. */
    readonly recv: Layout,
    /** Local rows sent to each rank, grouped by destination (`sendRows[send.displs[r] ...]`). */
    readonly sendRows: Int32Array,
    readonly send: Layout,
    /** Whether the whole matrix is symmetric in its pattern (each row is also its column): searches may go bottom-up. */
    readonly symmetric: boolean,
  ) {}

  /**
   * This rank's share of `a` under `partition` (every rank calls it, collectively: the halo
   * requests travel by one alltoallv). `a` must be square. It reads this rank's rows of `a`, and
   * for the symmetry check the rows they name (a rank that loads only its own rows would send
   * that check's questions to the owners instead).
   * @throws {InvalidArgumentError} when `a` is not square, the partition does not fit it or has
   *   another number of parts than the communicator has ranks.
   */
  static async build(comm: Communicator, a: CsrMatrix, partition: RowPartition): Promise<DistributedCsr> {
    const fn = 'DistributedCsr.build';
    if (!(a instanceof CsrMatrix)) throw new InvalidArgumentError(`${fn}: a must be a CsrMatrix, got ${describe(a)}`);
    if (a.rows !== a.cols) throw new InvalidArgumentError(`${fn}: a must be square (rows of X are partitioned as rows of a), got ${a.rows}x${a.cols}`);
    const { owner } = partition;
    if (!(owner instanceof Int32Array) || owner.length !== a.rows)
      throw new InvalidArgumentError(`${fn}: partition.owner must be an Int32Array of ${a.rows} parts, got ${describe(owner)}`);
    if (partition.parts !== comm.size)
      throw new InvalidArgumentError(`${fn}: the partition has ${partition.parts} parts but the communicator has ${comm.size} ranks`);
    const me = comm.rank;
    const n = a.rows;
    const rp = a.rowPtr;
    const ci = a.colIdx;
    const at = (i: number): number => Number(rp[i]!);
    // Own rows, interior ones first; the halo's columns, by owner then global id.
    const interior: number[] = [];
    const boundary: number[] = [];
    const localOf = new Int32Array(n).fill(-1);
    const haloCols: number[] = [];
    for (let i = 0; i < n; i++) {
      const o = owner[i]!;
      if (o < 0 || o >= comm.size) throw new InvalidArgumentError(`${fn}: partition.owner[${i}] = ${o} is outside [0, ${comm.size})`);
      if (o !== me) continue;
      let remote = false;
      for (let e = at(i); e < at(i + 1); e++) {
        const j = ci[e]!;
        if (owner[j] !== me) {
          remote = true;
          if (localOf[j] === -1) {
            localOf[j] = -2; // seen: numbered below
            haloCols.push(j);
          }
        }
      }
      (remote ? boundary : interior).push(i);
    }
    const rows = Int32Array.from([...interior, ...boundary]);
    rows.forEach((g, l) => void (localOf[g] = l));
    haloCols.sort((x, y) => owner[x]! - owner[y]! || x - y);
    const halo = Int32Array.from(haloCols);
    const recvCounts = new Int32Array(comm.size);
    halo.forEach((g, h) => {
      localOf[g] = rows.length + h;
      recvCounts[owner[g]!]!++;
    });
    const recv = layoutOf(recvCounts);
    // Local matrix: the own rows in local order, columns renumbered.
    const localPtr = new Int32Array(rows.length + 1);
    rows.forEach((g, l) => void (localPtr[l + 1] = localPtr[l]! + at(g + 1) - at(g)));
    const nnz = localPtr[rows.length]!;
    const localIdx = new Int32Array(nnz);
    const values = a.values ? new (a.values.constructor as Float32ArrayConstructor | Float64ArrayConstructor)(nnz) : undefined;
    rows.forEach((g, l) => {
      let w = localPtr[l]!;
      for (let e = at(g); e < at(g + 1); e++, w++) {
        localIdx[w] = localOf[ci[e]!]!;
        if (values) values[w] = a.values![e]!;
      }
    });
    const local = new CsrMatrix({ rows: rows.length, cols: rows.length + halo.length, rowPtr: localPtr, colIdx: localIdx, ...(values ? { values } : {}) });
    // Tell each owner which of its rows this rank needs; learn which of ours each rank needs.
    const sendCounts = new Int32Array(comm.size);
    await comm.alltoallv(recvCounts, ones(comm.size), iota(comm.size), sendCounts, ones(comm.size), iota(comm.size));
    const send = layoutOf(sendCounts);
    const wanted = new Int32Array(send.displs[comm.size - 1]! + sendCounts[comm.size - 1]!);
    await comm.alltoallv(halo, recv.counts, recv.displs, wanted, send.counts, send.displs);
    const sendRows = new Int32Array(wanted.length);
    wanted.forEach((g, k) => {
      if (g < 0 || g >= n || owner[g] !== me)
        throw new InvalidArgumentError(`${fn}: rank ${me} was asked for row ${g}, which it does not own (do all ranks use the same partition?)`);
      sendRows[k] = localOf[g]!;
    });
    // Symmetric pattern: every rank checks its own rows against the columns they name.
    const symmetric = Int32Array.of(rowsSymmetric(a, rows) ? 1 : 0);
    await comm.allreduce(symmetric, 'min');
    return new DistributedCsr(me, comm.size, n, local, rows, interior.length, halo, recv, sendRows, send, symmetric[0] === 1);
  }

  /** Rows this rank owns. */
  get localRows(): number {
    return this.local.rows;
  }

  /** How vertices travel to their owners in a search (computed once, on first use). */
  get vertexRoutes(): VertexRoutes {
    if (!this.routes) {
      const { rank, size, send, recv } = this;
      const haloOwner = new Int32Array(this.halo.length);
      for (let r = 0; r < size; r++) haloOwner.fill(r, recv.displs[r]!, recv.displs[r]! + recv.counts[r]!);
      const countsOut = Int32Array.from({ length: size }, (_, r) => (r !== rank && recv.counts[r]! > 0 ? 1 : 0));
      const countsIn = Int32Array.from({ length: size }, (_, r) => (r !== rank && send.counts[r]! > 0 ? 1 : 0));
      const countPlaces = Int32Array.from({ length: size }, (_, r) => r);
      this.routes = { haloOwner, countsOut, countsIn, countPlaces, peersOut: countsOut.reduce((sum, c) => sum + c, 0) };
    }
    return this.routes;
  }

  /** The local rows' pointers: 32-bit, as `build` makes them (the searches' native steps take no other). */
  get localRowPtr(): Int32Array {
    return this.local.rowPtr as Int32Array;
  }

  private readonly spaces = new Map<string, Float32Array | Float64Array>();
  private readonly outboxes = new Map<string, Float32Array | Float64Array>();

  /**
   * X's rows as the local matrix reads them: this rank's rows, then the halo's, `k` values each,
   * kept for reuse (one per k and precision). A product copies x into it unless x is already its
   * head (`inputBuffer`).
   * @internal
   */
  workspace(k: number, precision: 'f32' | 'f64'): Float32Array | Float64Array {
    const key = `${k}/${precision}`;
    let w = this.spaces.get(key);
    if (!w) {
      const n = (this.localRows + this.halo.length) * k;
      w = precision === 'f32' ? new Float32Array(n) : new Float64Array(n);
      this.spaces.set(key, w);
    }
    return w;
  }

  /**
   * The rows other ranks need (`sendRows`), `k` values each, packed for the exchange: kept for
   * reuse like `workspace`. A fresh buffer per product is fresh pages for the transport to read:
   * a 128 KiB alltoallv between two ranks of one host took 40 us from a new buffer and 12 us from
   * one used before.
   * @internal
   */
  outbox(k: number, precision: 'f32' | 'f64'): Float32Array | Float64Array {
    const key = `${k}/${precision}`;
    let w = this.outboxes.get(key);
    if (!w) {
      const n = this.sendRows.length * k;
      w = precision === 'f32' ? new Float32Array(n) : new Float64Array(n);
      this.outboxes.set(key, w);
    }
    return w;
  }

  /**
   * A `localRows x k` matrix to write this rank's rows of X into, in `rows` order: a product
   * given it reads it in place, without copying it next to the halo.
   */
  inputBuffer(k: number, precision: 'f32' | 'f64' = 'f32'): DenseMatrix {
    return new DenseMatrix(this.localRows, k, this.workspace(k, precision).subarray(0, this.localRows * k), { allowNonFinite: true });
  }
}

/** Whether every entry (i, j) of the given rows has its (j, i). */
/** Whether each entry (i, j) of rows `rows` of `a` has its mirror (j, i): the pattern is symmetric over those rows. */
export function rowsSymmetric(a: CsrMatrix, rows: Iterable<number>): boolean {
  const rp = a.rowPtr;
  const ci = a.colIdx;
  const at = (i: number): number => Number(rp[i]!);
  const has = (row: number, col: number): boolean => {
    let lo = at(row);
    let hi = at(row + 1);
    if (!a.sortedColumns) {
      for (let e = lo; e < hi; e++) if (ci[e] === col) return true;
      return false;
    }
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ci[mid]! < col) lo = mid + 1;
      else hi = mid;
    }
    return lo < at(row + 1) && ci[lo] === col;
  };
  for (const i of rows) for (let e = at(i); e < at(i + 1); e++) if (!has(ci[e]!, i)) return false;
  return true;
}

const ones = (n: number): Int32Array => new Int32Array(n).fill(1);
const iota = (n: number): Int32Array => Int32Array.from({ length: n }, (_, i) => i);
