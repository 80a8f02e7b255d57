// A whole workload on every rank of a communicator: the same DAG the single-process executor runs
// (a shipped workload or a definition, bound to the same data with the same seed on every rank),
// with each value kept where it belongs. A sparse input is split by rows (one DistributedCsr per
// sparse value, all under one partition of the graph's vertices); a dense value with one row per
// vertex is distributed the same way (each rank its vertices' rows); a smaller dense value (a
// weight matrix) is replicated. SpMM and SpMV exchange their halos, BFS searches across ranks,
// and GEMM, ReLU, affine and add run on each rank's own rows without communication. A rank's
// sparse products run on a device of its node where one is given (`device`), the rest on its
// host CPU.

import type { CsrMatrix } from '../data/csr.js';
import type { Device, TimeSource } from '../devices/device.js';
import { DenseMatrix } from '../data/dense.js';
import { metisAvailable, partitionMetis, partitionRows, type RowPartition } from '../data/partition.js';
import { describe, InvalidArgumentError, UnsupportedError } from '../errors.js';
import { nativeAdd, nativeAffine, nativeGemm, nativeRelu } from '../kernels/dense.js';
import { resolveWorkload } from '../scheduler/problem.js';
import { checkOptions } from '../validate.js';
import { bindWorkload, type BoundOp, type BoundWorkload, type WorkloadData } from '../workloads/bind.js';
import type { Value } from '../workloads/reference.js';
import { DistributedLayouts } from './layouts.js';
import { type ExchangeSpan, splitExchanges } from './exchange-timing.js';
import { orderBetween } from './row-orders.js';
import { Lifetimes } from '../executor/lifetimes.js';
import { distributedBfs } from './bfs.js';
import { distributedMsbfs } from './msbfs.js';
import { gatherRows, gatherVertices } from './gather.js';
import { DistributedCsr } from './halo.js';
import type { Communicator } from './mpi.js';
import { checkDevice, distributedSpmm, localRowsOf } from './spmm.js';

export interface RunDistributedOptions {
  /** Overrides of the workload's `params`. */
  readonly params?: Readonly<Record<string, number>>;
  /** Seed of generated inputs and source choices (the same on every rank). @default 1 */
  readonly seed?: number;
  /** How the vertices are split: `metis` where the build has it, else `rows`. @default 'metis' if available */
  readonly partitioner?: 'rows' | 'metis';
  /**
   * Each rank's share of the rows' work, one positive number per rank (`planNodes(...).weights`:
   * a faster node takes more). The same on every rank. @default equal shares
   */
  readonly weights?: readonly number[];
  /**
   * This rank's device for the sparse products (SpMM, SpMV): a device of the node it runs on,
   * such as the GPU `planNodes` gave the node its share for. Other operators run on the rank's
   * host CPU. Ranks may pass different devices (or none: the host's kernels). @default none
   */
  readonly device?: Device;
  /**
   * Partitions and layouts kept across calls (`new DistributedLayouts(comm)` on every rank, passed
   * to every call): repeated runs on the same graph then skip partitioning, the halo lists'
   * exchange and the workspaces' first touch. @default built afresh for each call
   */
  readonly layouts?: DistributedLayouts;
}

/** One sparse product of a rank: where it ran and its seconds there (interior plus boundary rows). */
export interface RankProduct {
  readonly op: string;
  readonly device: string;
  readonly seconds: number;
  readonly source: TimeSource;
}

export interface DistributedRunResult {
  /** The workload's outputs, gathered on every rank in global order. */
  readonly outputs: Record<string, Value>;
  /** The bound workload (for the reference: `referenceValues(result.bound)`). */
  readonly bound: BoundWorkload;
  readonly partition: RowPartition;
  /** Seconds of the operators on this rank (setup and gathering excluded). */
  readonly seconds: number;
  /** Bytes this rank sent in the operators' exchanges. */
  readonly bytesSent: number;
  /**
   * Seconds this rank spent in the operators' exchanges (the halo alltoallv, a search's per-level
   * exchanges), from its call until it saw each complete: any wait for the other ranks included.
   */
  readonly exchangeSeconds: number;
  /**
   * The same exchanges counted from the last rank's arrival at each (exchange-timing.ts): the
   * bytes' time, what `planNodes` and `predictExchange` predict. Undefined where the communicator
   * gives no moments (a stand-in).
   */
  readonly transferSeconds?: number;
  /** What this rank waited in the exchanges for the last rank to arrive: load imbalance between ranks, not communication. */
  readonly waitSeconds?: number;
  /** This rank's sparse products, in order: on which device and how long it reported. */
  readonly products: readonly RankProduct[];
}

/** Where a value lives: a distributed sparse matrix, a vertex-distributed dense or depths value (rows in its layout's order), or replicated. */
type Placed =
  | { readonly at: 'sparse'; readonly dist: DistributedCsr }
  | { readonly at: 'rows'; readonly layout: DistributedCsr; readonly data: DenseMatrix }
  | { readonly at: 'depths'; readonly layout: DistributedCsr; readonly data: Int32Array[] }
  | { readonly at: 'replicated'; readonly data: DenseMatrix };

/**
 * Run `workload` on `data` across the communicator's ranks (collective: every rank calls it with
 * the same arguments).
 * @throws {InvalidArgumentError} on a bad workload, data or option; {UnsupportedError} for an
 *   operator without a distributed form (sddmm, edge softmax, row reductions) or sparse inputs of
 *   different sizes.
 * @example
 * // mpirun -np 4 node --import tsx run-gcn.ts
 * const comm = initMpi();
 * const r = await runDistributed(comm, 'gcn', graph);
 * if (comm.rank === 0) console.log(r.outputs['agg2']);
 */
export async function runDistributed(
  comm: Communicator,
  workload: unknown,
  data: WorkloadData,
  options: RunDistributedOptions = {},
): Promise<DistributedRunResult> {
  const fn = 'runDistributed';
  const opts = checkOptions(fn, options, ['params', 'seed', 'partitioner', 'weights', 'device', 'layouts']);
  const bound = bindWorkload(resolveWorkload(fn, workload), data, {
    ...(opts.params ? { params: opts.params } : {}),
    ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
  });
  // Checked before any collective: a rank that cannot run its products stops before the exchanges
  // (the other ranks' collectives then end as for a rank that died, rank-failure.test.ts).
  if (opts.device !== undefined && bound.ops.some((o) => o.kind === 'spmm' || o.kind === 'spmv'))
    checkDevice(fn, opts.device, bound.ops.some((o) => o.kind === 'spmm') ? 'spmm' : 'spmv', bound.precision);
  const sparse = bound.values.filter((v) => v.kind === 'sparse');
  if (sparse.length === 0) throw new UnsupportedError(`${fn}: workload ${bound.name} has no sparse input to partition`);
  const n = sparse[0]!.rows;
  const odd = sparse.find((v) => v.rows !== n || v.cols !== n);
  if (odd)
    throw new UnsupportedError(
      `${fn}: sparse input ${odd.name} is ${odd.rows}x${odd.cols}; every sparse input must be ${n}x${n} (one partition of the vertices)`,
    );
  const method = opts.partitioner ?? (metisAvailable().available ? 'metis' : 'rows');
  if (method !== 'rows' && method !== 'metis') throw new InvalidArgumentError(`${fn}: partitioner must be 'rows' or 'metis', got ${describe(method)}`);
  const first = sparse[0]!.data as CsrMatrix;
  const shares = opts.weights ? { weights: opts.weights } : {};
  if (opts.weights && (!Array.isArray(opts.weights) || opts.weights.length !== comm.size))
    throw new InvalidArgumentError(`${fn}: weights must give each of the ${comm.size} ranks a share, got ${describe(opts.weights)}`);
  const { layouts } = opts;
  if (layouts !== undefined && (!(layouts instanceof DistributedLayouts) || layouts.comm !== comm))
    throw new InvalidArgumentError(`${fn}: layouts must be a DistributedLayouts made for this communicator, got ${describe(layouts)}`);
  const makePartition = (): RowPartition => (method === 'metis' ? partitionMetis(first, comm.size, shares) : partitionRows(first, comm.size, shares));
  const partition = layouts ? layouts.partition(first, `${method}/${opts.weights?.join(',') ?? 'equal'}`, makePartition) : makePartition();
  const placed: (Placed | undefined)[] = new Array(bound.values.length);
  let layout: DistributedCsr | undefined;
  for (const [i, v] of bound.values.entries()) {
    if (v.kind !== 'sparse' || v.producer >= 0) continue;
    const dist = layouts ? await layouts.layout(v.data as CsrMatrix, partition) : await DistributedCsr.build(comm, v.data as CsrMatrix, partition);
    layout ??= dist;
    placed[i] = { at: 'sparse', dist };
  }
  for (const [i, v] of bound.values.entries()) {
    if (v.kind !== 'dense' || v.producer >= 0) continue;
    const m = v.data as DenseMatrix;
    placed[i] = m.rows === n ? { at: 'rows', layout: layout!, data: localRowsOf(layout!, m) } : { at: 'replicated', data: m };
  }
  const t0 = performance.now();
  let bytesSent = 0;
  let exchangeSeconds = 0;
  const products: RankProduct[] = [];
  const spans: (ExchangeSpan | undefined)[] = [];
  // Intermediates go back to the kernels' output pool once their last reader is done, as in a
  // single-process run: fresh arrays per operator were new pages and garbage (page faults,
  // zeroing and V8's collector took several times the kernels' own time in a GCN).
  const lifetimes = new Lifetimes(bound, false);
  const local: (Value | undefined)[] = new Array(bound.values.length);
  for (const op of bound.ops) {
    const x = op.operands.map((k) => placed[k]!);
    const { value, bytes, exchange, product } = await runOp(fn, comm, op, x, opts.device, spans);
    placed[op.output] = value;
    if (value.at === 'rows') local[op.output] = value.data;
    lifetimes.finished(op, local);
    for (const v of op.operands) if (local[v] === undefined && placed[v]?.at === 'rows' && bound.values[v]!.producer >= 0) placed[v] = undefined;
    bytesSent += bytes;
    exchangeSeconds += exchange;
    if (product) products.push(product);
  }
  const seconds = (performance.now() - t0) / 1000;
  const split = await splitExchanges(comm, spans);
  const outputs: Record<string, Value> = {};
  for (const o of bound.outputs) outputs[bound.values[o]!.name] = await gathered(comm, placed[o]!, n);
  return { outputs, bound, partition, seconds, bytesSent, exchangeSeconds, ...(split ?? {}), products };
}

/** A dense operand in `layout`'s row order (vertex-distributed values of another layout reordered locally). */
function rowsIn(layout: DistributedCsr, p: Placed, fn: string, op: BoundOp): DenseMatrix {
  if (p.at === 'replicated') return localRowsOf(layout, p.data);
  if (p.at !== 'rows') throw new UnsupportedError(`${fn}: operator ${op.id} (${op.kind}) reads a ${p.at} value where it needs a dense one`);
  if (p.layout === layout) return p.data;
  const order = orderBetween(p.layout, layout);
  if (order === null) return p.data;
  const k = p.data.cols;
  const out = DenseMatrix.zeros(layout.localRows, k, p.data.precision);
  order.forEach((from, l) => out.data.set(p.data.data.subarray(from * k, (from + 1) * k), l * k));
  return out;
}

async function runOp(
  fn: string,
  comm: Communicator,
  op: BoundOp,
  x: Placed[],
  device: Device | undefined,
  spans: (ExchangeSpan | undefined)[],
): Promise<{ value: Placed; bytes: number; exchange: number; product?: RankProduct }> {
  const local = (p: Placed): { layout: DistributedCsr | undefined; data: DenseMatrix } =>
    p.at === 'rows' ? { layout: p.layout, data: p.data } : p.at === 'replicated' ? { layout: undefined, data: p.data } : unsupported(fn, op, p.at);
  const place = (layout: DistributedCsr | undefined, data: DenseMatrix): Placed => (layout ? { at: 'rows', layout, data } : { at: 'replicated', data });
  switch (op.kind) {
    case 'spmm':
    case 'spmv': {
      const s = x[0]!;
      if (s.at !== 'sparse') return unsupported(fn, op, s.at);
      const r = await distributedSpmm(comm, s.dist, rowsIn(s.dist, x[1]!, fn, op), device ? { device } : {});
      const product = { op: op.id, device: r.device, seconds: r.times.interior + r.times.boundary, source: r.source };
      spans.push(r.times.exchangeSpan);
      return { value: { at: 'rows', layout: s.dist, data: r.y }, bytes: r.bytesSent, exchange: r.times.exchange, product };
    }
    case 'bfs': {
      const s = x[0]!;
      if (s.at !== 'sparse') return unsupported(fn, op, s.at);
      const r = await distributedBfs(comm, s.dist, op.source!);
      for (const l of r.levels) spans.push(l.exchangeSpan);
      return { value: { at: 'depths', layout: s.dist, data: [r.depths] }, ...exchanged(r.levels) };
    }
    case 'msbfs': {
      const s = x[0]!;
      if (s.at !== 'sparse') return unsupported(fn, op, s.at);
      const r = await distributedMsbfs(comm, s.dist, Array.from(op.sources!));
      for (const l of r.levels) spans.push(l.exchangeSpan);
      return { value: { at: 'depths', layout: s.dist, data: r.depths }, ...exchanged(r.levels) };
    }
    case 'gemm': {
      const a = local(x[0]!);
      const w = x[1]!;
      if (w.at !== 'replicated') return unsupported(fn, op, `${w.at} (a weight matrix must have fewer rows than vertices)`);
      return { value: place(a.layout, (await nativeGemm(a.data, w.data)).output), bytes: 0, exchange: 0 };
    }
    case 'relu': {
      const a = local(x[0]!);
      return { value: place(a.layout, (await nativeRelu(a.data)).output), bytes: 0, exchange: 0 };
    }
    case 'affine': {
      const a = local(x[0]!);
      return { value: place(a.layout, (await nativeAffine(a.data, op.scale ?? 1, op.shift ?? 0)).output), bytes: 0, exchange: 0 };
    }
    case 'add': {
      const a = local(x[0]!);
      const b = a.layout ? rowsIn(a.layout, x[1]!, fn, op) : local(x[1]!).data;
      return { value: place(a.layout, (await nativeAdd(a.data, b)).output), bytes: 0, exchange: 0 };
    }
    default:
      throw new UnsupportedError(
        `${fn}: operator ${op.id} (${op.kind}) has no distributed form yet (distributed: spmm, spmv, bfs, msbfs, gemm, relu, affine, add)`,
      );
  }
}

function unsupported(fn: string, op: BoundOp, what: string): never {
  throw new UnsupportedError(`${fn}: operator ${op.id} (${op.kind}) cannot read a ${what} operand in a distributed run`);
}

/** A value gathered on every rank in global order. */
async function gathered(comm: Communicator, p: Placed, n: number): Promise<Value> {
  if (p.at === 'replicated') return p.data;
  if (p.at === 'rows') return gatherRows(comm, p.layout, p.data);
  if (p.at === 'depths') {
    const out = new Int32Array(p.data.length * n);
    for (const [i, d] of p.data.entries()) out.set(await gatherVertices(comm, p.layout, d), i * n);
    return out;
  }
  throw new UnsupportedError('runDistributed: a sparse output cannot be gathered yet');
}

/** A search's bytes sent (vertices or masks, and the counts) and its seconds in exchanges, over its levels. */
function exchanged(levels: readonly { bytesSent: number; controlBytes: number; exchangeSeconds: number }[]): { bytes: number; exchange: number } {
  return {
    bytes: levels.reduce((t, l) => t + l.bytesSent + l.controlBytes, 0),
    exchange: levels.reduce((t, l) => t + l.exchangeSeconds, 0),
  };
}
