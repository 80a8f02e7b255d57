// Predicted scaling of a distributed SpMM over node counts: for each count the graph is partitioned
// (row blocks or METIS), and each node's time is its rows' kernel time plus its halo exchange. The
// kernel time is the entries times k times a rate measured on one node (seconds per entry and
// column of X); the exchange is one latency per peer and the node's larger direction of bytes at
// the interconnect's bandwidth (`predictExchange`), and the step ends with the slowest node.
// Exchange and kernel are added, not overlapped (the interior rows could hide part of the
// exchange), and the rate does not grow as a node's share comes to fit its cache: both make the
// prediction conservative. Everything here is a prediction, and says so in `source`.

import type { CsrMatrix } from '../data/csr.js';
import { partitionMetis, partitionRows, partitionStats, type RowPartition } from '../data/partition.js';
import { describe, InvalidArgumentError } from '../errors.js';
import { type Interconnect, predictExchange } from './interconnect.js';

export interface ScalingOptions {
  /** Node counts to predict, each in [1, 2^16]. */
  readonly nodes: readonly number[];
  /** Columns of X. */
  readonly k: number;
  /** Bytes per value of X (4 for FP32, 8 for FP64). @default 4 */
  readonly elementBytes?: number;
  /** How rows are given to nodes: contiguous row blocks, or METIS parts (where the build has METIS). */
  readonly method: 'rows' | 'metis';
  /** Seconds per entry and column of X on one node, measured (e.g. one SpMM's seconds / (nnz * k)). */
  readonly secondsPerEntryColumn: number;
  /** The network between nodes: measured (`measureInterconnect`) or declared. */
  readonly interconnect: Interconnect;
}

/** One node count's prediction: the slowest node's parts, and the step's time. */
export interface ScalingPoint {
  readonly nodes: number;
  /** Largest entries on one node over the mean (1 is perfect balance). */
  readonly imbalance: number;
  /** Rows of X received by the node receiving the most. */
  readonly maxHaloRows: number;
  /** Rows of X sent, over all nodes, per step. */
  readonly haloRowsTotal: number;
  /** Kernel seconds of the node with the most entries. */
  readonly kernelSeconds: number;
  /** Exchange seconds of the slowest node's exchange. */
  readonly exchangeSeconds: number;
  /** The step: the slowest node's kernel plus exchange. */
  readonly seconds: number;
  /** One node's seconds over this count's. */
  readonly speedup: number;
  /** Speedup over nodes. */
  readonly efficiency: number;
}

export interface ScalingPrediction {
  readonly points: readonly ScalingPoint[];
  /** What the figures rest on, for labels. */
  readonly source: string;
}

/**
 * Predict a distributed SpMM's step time on `a` (square) for each node count.
 * @throws {InvalidArgumentError} on a node count outside [1, 2^16] or beyond the rows, a k or rate
 *   that is not a positive finite number, or an interconnect without a latency and a bandwidth.
 * @example
 * const net = { latencySeconds: 2e-6, bytesPerSecond: 12.5e9, source: 'declared: 100 Gb/s' };
 * predictScaling(graph, { nodes: [1, 2, 4, 8], k: 32, method: 'rows', secondsPerEntryColumn: 1e-10, interconnect: net });
 */
export function predictScaling(a: CsrMatrix, options: ScalingOptions): ScalingPrediction {
  const fn = 'predictScaling';
  const { nodes, k, method, secondsPerEntryColumn: rate, interconnect: net } = options;
  const elementBytes = options.elementBytes ?? 4;
  if (!Array.isArray(nodes) || nodes.length === 0 || nodes.some((n) => !Number.isInteger(n) || n < 1 || n > 65536 || n > a.rows))
    throw new InvalidArgumentError(`${fn}: nodes must list integers in [1, min(2^16, ${a.rows} rows)], got ${describe(nodes)}`);
  if (!Number.isInteger(k) || k < 1) throw new InvalidArgumentError(`${fn}: k must be a positive integer, got ${describe(k)}`);
  if (elementBytes !== 4 && elementBytes !== 8) throw new InvalidArgumentError(`${fn}: elementBytes must be 4 or 8, got ${describe(elementBytes)}`);
  if (!(rate > 0 && Number.isFinite(rate)))
    throw new InvalidArgumentError(`${fn}: secondsPerEntryColumn must be a positive finite number, got ${describe(rate)}`);
  if (method !== 'rows' && method !== 'metis') throw new InvalidArgumentError(`${fn}: method must be 'rows' or 'metis', got ${describe(method)}`);
  if (!(net !== null && typeof net === 'object' && net.latencySeconds >= 0 && net.bytesPerSecond > 0))
    throw new InvalidArgumentError(`${fn}: interconnect must have latencySeconds >= 0 and bytesPerSecond > 0, got ${describe(net)}`);
  const one = a.nnz * k * rate;
  const points = nodes.map((n): ScalingPoint => {
    const partition: RowPartition = n === 1 || method === 'rows' ? partitionRows(a, n) : partitionMetis(a, n);
    const stats = partitionStats(a, partition);
    let kernel = 0;
    let exchange = 0;
    let seconds = 0;
    let maxEntries = 0;
    let maxHalo = 0;
    for (const part of stats.parts) {
      const own = part.entries * k * rate;
      // A node's exchange as predictExchange sees it: its peers, and what it sends and receives.
      const x =
        n === 1 ? 0 : nodeExchange(part.peers, part.sends * k, part.halo * k, elementBytes, net, productBytes(part.entries, part.rows, k, elementBytes));
      kernel = Math.max(kernel, own);
      exchange = Math.max(exchange, x);
      seconds = Math.max(seconds, own + x);
      maxEntries = Math.max(maxEntries, part.entries);
      maxHalo = Math.max(maxHalo, part.halo);
    }
    const speedup = one / seconds;
    return {
      nodes: n,
      imbalance: a.nnz > 0 ? maxEntries / (a.nnz / n) : 1,
      maxHaloRows: maxHalo,
      haloRowsTotal: stats.haloTotal,
      kernelSeconds: kernel,
      exchangeSeconds: exchange,
      seconds,
      speedup,
      efficiency: speedup / n,
    };
  });
  return {
    points,
    source: `predicted: kernels at ${(rate * 1e12).toPrecision(3)} ps per entry and column (measured on one node), exchanges on ${net.source}; ${method === 'metis' ? 'METIS' : 'row-block'} partitions`,
  };
}

/**
 * predictExchange for a node talking to `peers` others, its sends and receipts spread evenly over
 * them (elements), after `touchedBytes` of work (its share of a product: productBytes).
 */
export function nodeExchange(peers: number, send: number, recv: number, elementBytes: number, net: Interconnect, touchedBytes?: number): number {
  if (peers === 0) return 0;
  const spread = (total: number): Int32Array => {
    const counts = new Int32Array(peers + 1);
    for (let r = 1; r <= peers; r++) counts[r] = Math.floor(total / peers) + (r <= total % peers ? 1 : 0);
    return counts;
  };
  const layout = (counts: Int32Array) => ({ counts, displs: new Int32Array(counts.length) });
  return predictExchange(layout(spread(send)), layout(spread(recv)), elementBytes, 0, net, touchedBytes);
}

/**
 * Bytes a node's share of a product passes through its caches between two exchanges: its entries
 * (index and value) and its rows of X and Y. What the exchange after it finds the caches holding.
 */
export const productBytes = (entries: number, rows: number, k: number, elementBytes: number): number => entries * 8 + 2 * rows * k * elementBytes;
