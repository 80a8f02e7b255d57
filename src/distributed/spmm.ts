// Distributed SpMM and SpMV: each rank multiplies its own rows, Y_local = A_local * X, where X's
// rows are partitioned as A's. The rows of X a rank's rows read from other ranks (its halo) come
// by one alltoallv, started before anything else; the interior rows, which read only the rank's
// own rows of X, are computed while it travels, and the boundary rows after it has arrived. The
// products run on the host's kernels, or on a device of the rank's node (`device`): a node with a
// GPU computes its larger share there.

import { DenseMatrix, type DenseArray } from '../data/dense.js';
import type { Device, TimeSource } from '../devices/device.js';
import { describe, InvalidArgumentError } from '../errors.js';
import { checkOptions } from '../validate.js';
import { spmmTimed } from '../kernels/spmm.js';
import { takeOutput } from '../kernels/output-pool.js';
import { type DistributedCsr, scaled } from './halo.js';
import { type ExchangeSpan, spanOf } from './exchange-timing.js';
import type { Communicator } from './mpi.js';

/** Where a distributed product's time went on this rank, in seconds. */
export interface DistributedTimes {
  /** The whole call. */
  readonly total: number;
  /** Packing the rows other ranks need. */
  readonly pack: number;
  /** Kernel time of the interior rows (computed while the halo travels). */
  readonly interior: number;
  /** From the exchange's start until the halo had arrived and the interior rows were done. */
  readonly overlapped: number;
  /** Kernel time of the boundary rows. */
  readonly boundary: number;
  /** The alltoallv, from this rank's call until it saw the halo complete (any wait for the other ranks included). */
  readonly exchange: number;
  /** When it entered the alltoallv and saw it complete (where the communicator stamps them): exchange-timing.ts splits off the wait. */
  readonly exchangeSpan?: ExchangeSpan;
}

export interface DistributedProduct {
  /** This rank's rows of Y, in the matrix's local order (`dist.rows`). */
  readonly y: DenseMatrix;
  readonly times: DistributedTimes;
  /** Bytes this rank sent in the exchange. */
  readonly bytesSent: number;
  /** Where the products ran: `host` (the native kernels) or the device's name. */
  readonly device: string;
  /** How the interior and boundary seconds were obtained: measured on real hardware or simulated. */
  readonly source: TimeSource;
}

export interface DistributedSpmmOptions {
  /** Receives Y instead of a new matrix (`localRows x k`, x's precision). */
  readonly out?: DenseMatrix;
  /**
   * Run the products on this device of the rank's node (its `run`, row ranges of the local
   * matrix) instead of the host's kernels; its seconds and their source are reported.
   */
  readonly device?: Device;
}

const alloc = (x: DenseArray, n: number): DenseArray => (x instanceof Float32Array ? new Float32Array(n) : new Float64Array(n));

/**
 * Y_local = A_local * X on every rank, collectively. `x` holds this rank's rows of X in local
 * order (`dist.rows`): `dist.localRows x k`; written into `dist.inputBuffer(k)`, it is read in
 * place. `out` (`localRows x k`) receives Y instead of a new matrix. One product at a time per
 * `dist`: the halo's workspace is the distributed matrix's.
 * @throws {InvalidArgumentError} when `x` does not fit the local rows; {DistributedError} when the
 *   exchange fails.
 * @example
 * const dist = await DistributedCsr.build(comm, a, partitionMetis(a, comm.size));
 * const { y } = await distributedSpmm(comm, dist, localRowsOf(dist, x));
 * const whole = await gatherRows(comm, dist, y);   // every rank: the full Y in global order
 */
export async function distributedSpmm(
  comm: Communicator,
  dist: DistributedCsr,
  x: DenseMatrix,
  options: DistributedSpmmOptions = {},
): Promise<DistributedProduct> {
  const fn = 'distributedSpmm';
  checkOptions(fn, options, ['out', 'device']);
  const { device } = options;
  if (device !== undefined) checkDevice(fn, device, x.cols === 1 ? 'spmv' : 'spmm', x.precision);
  if (!(x instanceof DenseMatrix)) throw new InvalidArgumentError(`${fn}: x must be a DenseMatrix, got ${describe(x)}`);
  if (x.rows !== dist.localRows)
    throw new InvalidArgumentError(
      `${fn}: x has ${x.rows} rows but rank ${dist.rank} owns ${dist.localRows} rows (x holds this rank's rows of X, in dist.rows order)`,
    );
  const t0 = performance.now();
  const k = x.cols;
  const own = dist.localRows;
  // X with the halo rows after the own rows: the local matrix's column space (kept on dist).
  const ext = dist.workspace(k, x.precision);
  if (ext.buffer !== x.data.buffer || ext.byteOffset !== x.data.byteOffset) ext.set(x.data);
  const sendBuf = dist.outbox(k, x.precision);
  const xd = x.data;
  // Element by element: a subarray per row costs more than the copy for small k.
  for (let s = 0, w = 0; s < dist.sendRows.length; s++) {
    const from = dist.sendRows[s]! * k;
    for (let c = 0; c < k; c++) sendBuf[w++] = xd[from + c]!;
  }
  const send = scaled(fn, dist.send, k);
  const recv = scaled(fn, dist.recv, k);
  // The halo lands after the own rows: shift the receive displacements by them.
  const recvDispls = recv.displs.map((d) => d + own * k);
  const t1 = performance.now();
  const exchange = comm.alltoallv(sendBuf, send.counts, send.displs, ext, recv.counts, recvDispls);
  exchange.catch(() => undefined); // awaited below; an interior failure must not leave it unhandled
  // The halo part of ext is being written while the interior rows run: they read own rows only.
  const xs = new DenseMatrix(own + dist.halo.length, k, ext, { allowNonFinite: true });
  const { out } = options;
  if (out !== undefined && (!(out instanceof DenseMatrix) || out.rows !== own || out.cols !== k || out.precision !== x.precision))
    throw new InvalidArgumentError(`${fn}: out must be a ${own}x${k} ${x.precision} DenseMatrix, got ${describe(out)}`);
  // From the kernels' output pool: every row is written below, and a run gives dead ones back.
  const y = out ?? new DenseMatrix(own, k, takeOutput(fn, own, k, x.precision), { allowNonFinite: true });
  const view = (b: number, e: number): DenseMatrix => new DenseMatrix(e - b, k, y.data.subarray(b * k, e * k), { allowNonFinite: true });
  const rows = async (b: number, e: number): Promise<number> => {
    if (e <= b) return 0;
    if (device === undefined) return (await spmmTimed(fn, dist.local, xs, { rows: [b, e], out: view(b, e) })).seconds;
    const r = await device.run({ kind: k === 1 ? 'spmv' : 'spmm' }, { a: dist.local, x: xs }, [b, e]);
    view(b, e).data.set(r.output.data);
    return r.seconds;
  };
  // Where the rank has no core for the exchange's progress beside its kernels (mpi.ts, waitPolicy),
  // the halo is awaited first: overlapped there, it moved only when the kernel let its thread run.
  const overlap = !('wait' in comm) || (comm as { wait: { overlap: boolean } }).wait.overlap;
  const early = overlap ? undefined : await exchange;
  const interior = await rows(0, dist.interior);
  const exchanged = early ?? (await exchange);
  const exchangeSpan = spanOf(exchanged);
  const t2 = performance.now();
  const boundary = await rows(dist.interior, own);
  const t3 = performance.now();
  return {
    y,
    times: {
      total: (t3 - t0) / 1000,
      pack: (t1 - t0) / 1000,
      interior,
      overlapped: (t2 - t1) / 1000,
      boundary,
      exchange: exchanged.seconds,
      ...(exchangeSpan ? { exchangeSpan } : {}),
    },
    bytesSent: sendBuf.byteLength,
    device: device?.name ?? 'host',
    source: device === undefined || !device.simulated ? 'measured' : 'simulated',
  };
}

/** A device that can run `kind` in `precision`, or a typed error naming what it lacks. */
export function checkDevice(fn: string, device: Device, kind: 'spmm' | 'spmv', precision: string): void {
  const caps = (device as Partial<Device> | null)?.capabilities;
  if (typeof (device as Partial<Device> | null)?.run !== 'function' || caps === undefined)
    throw new InvalidArgumentError(`${fn}: device must be a device of a System, got ${describe(device)}`);
  if (!caps.operators.includes(kind) || !caps.precisions.includes(precision as never))
    throw new InvalidArgumentError(
      `${fn}: device ${device.name} cannot run ${kind} in ${precision} (it runs ${caps.operators.join(', ')} in ${caps.precisions.join(', ')})`,
    );
}

/** This rank's rows of a whole `rows x k` matrix, in the distributed matrix's local order. */
export function localRowsOf(dist: DistributedCsr, whole: DenseMatrix): DenseMatrix {
  const fn = 'localRowsOf';
  if (!(whole instanceof DenseMatrix) || whole.rows !== dist.globalRows)
    throw new InvalidArgumentError(`${fn}: expected a DenseMatrix of ${dist.globalRows} rows, got ${describe(whole)}`);
  const k = whole.cols;
  const out = alloc(whole.data, dist.localRows * k);
  dist.rows.forEach((g, l) => out.set(whole.data.subarray(g * k, (g + 1) * k), l * k));
  return new DenseMatrix(dist.localRows, k, out, { allowNonFinite: true });
}
