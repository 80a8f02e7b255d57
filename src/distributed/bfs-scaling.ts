// Predicted scaling of a distributed BFS over node counts. For each count the graph is partitioned
// (row blocks or METIS) and each search is replayed level by level (`predictBfsExchange`): a level
// ends when the slowest node has scanned its share of the level's entries and exchanged its
// frontier. A node's compute is its entries at a rate measured on one node (one search's seconds
// over the entries the same replay counts for it on one node), its exchange the level's predicted
// seconds on the interconnect. Compute and exchange are added per level, not overlapped, and a
// bottom-up level is charged every unvisited vertex's entries (a vertex stops at its first parent
// in the frontier): both make the prediction conservative. Everything here is a prediction.

import type { CsrMatrix } from '../data/csr.js';
import { partitionMetis, partitionRows, type RowPartition } from '../data/partition.js';
import { describe, InvalidArgumentError } from '../errors.js';
import { predictBfsExchange } from './bfs-prediction.js';
import type { Interconnect } from './interconnect.js';

export interface BfsScalingOptions {
  /** Node counts to predict, each in [1, 2^16]. */
  readonly nodes: readonly number[];
  /** The searches' sources (their predicted seconds are averaged). */
  readonly sources: readonly number[];
  /** How vertices are given to nodes: contiguous row blocks, or METIS parts (where the build has METIS). */
  readonly method: 'rows' | 'metis';
  /** Seconds per scanned entry on one node, measured (`bfsWork` gives a search's entries). */
  readonly secondsPerEntry: number;
  /** The network between nodes: measured (`measureInterconnect`) or declared. */
  readonly interconnect: Interconnect;
}

/** One node count's prediction, averaged over the sources. */
export interface BfsScalingPoint {
  readonly nodes: number;
  /** Levels per search (mean). */
  readonly levels: number;
  /** Seconds of the slowest node's compute, summed over levels. */
  readonly computeSeconds: number;
  /** Seconds of the levels' exchanges. */
  readonly exchangeSeconds: number;
  /** The search: per level the slowest node's compute plus the exchange, summed. */
  readonly seconds: number;
  /** Bytes sent over all nodes per search (frontier vertices or bits, and counts). */
  readonly bytes: number;
  /** One node's seconds over this count's. */
  readonly speedup: number;
  readonly efficiency: number;
}

export interface BfsScalingPrediction {
  readonly points: readonly BfsScalingPoint[];
  /** What the figures rest on, for labels. */
  readonly source: string;
}

/**
 * Entries a search from `source` scans on one node, as the replay counts them: the rate's
 * denominator (a measured one-node search's seconds over this).
 * @throws {InvalidArgumentError} as `predictBfsExchange`.
 */
export function bfsWork(a: CsrMatrix, source: number): number {
  const one: RowPartition = { parts: 1, method: 'rows', owner: new Int32Array(a.rows), bounds: Int32Array.of(0, a.rows) };
  return predictBfsExchange(a, one, source).reduce((sum, level) => sum + level.work[0]!, 0);
}

/**
 * Predict a distributed BFS's time on `a` (square, symmetric for bottom-up levels) for each node count.
 * @throws {InvalidArgumentError} on a node count outside [1, 2^16] or beyond the rows, no sources,
 *   a rate that is not a positive finite number, or an interconnect without a latency and a bandwidth.
 * @example
 * const net = { latencySeconds: 1.5e-6, bytesPerSecond: 12.5e9, source: 'declared: 100 Gb/s' };
 * predictBfsScaling(graph, { nodes: [1, 4, 16], sources: [0], method: 'rows', secondsPerEntry: 2e-9, interconnect: net });
 */
export function predictBfsScaling(a: CsrMatrix, options: BfsScalingOptions): BfsScalingPrediction {
  const fn = 'predictBfsScaling';
  const { nodes, sources, method, secondsPerEntry: rate, interconnect: net } = options;
  if (!Array.isArray(nodes) || nodes.length === 0 || nodes.some((n) => !Number.isInteger(n) || n < 1 || n > 65536 || n > a.rows))
    throw new InvalidArgumentError(`${fn}: nodes must list integers in [1, min(2^16, ${a.rows} rows)], got ${describe(nodes)}`);
  if (!Array.isArray(sources) || sources.length === 0) throw new InvalidArgumentError(`${fn}: sources must list at least one vertex, got ${describe(sources)}`);
  if (!(rate > 0 && Number.isFinite(rate))) throw new InvalidArgumentError(`${fn}: secondsPerEntry must be a positive finite number, got ${describe(rate)}`);
  if (method !== 'rows' && method !== 'metis') throw new InvalidArgumentError(`${fn}: method must be 'rows' or 'metis', got ${describe(method)}`);
  if (!(net !== null && typeof net === 'object' && net.latencySeconds >= 0 && net.bytesPerSecond > 0))
    throw new InvalidArgumentError(`${fn}: interconnect must have latencySeconds >= 0 and bytesPerSecond > 0, got ${describe(net)}`);
  const one = sources.reduce((sum, s) => sum + bfsWork(a, s) * rate, 0) / sources.length;
  const points = nodes.map((n): BfsScalingPoint => {
    const partition = n === 1 || method === 'rows' ? partitionRows(a, n) : partitionMetis(a, n);
    let compute = 0;
    let exchange = 0;
    let bytes = 0;
    let levels = 0;
    for (const source of sources) {
      for (const level of predictBfsExchange(a, partition, source, { interconnect: net })) {
        compute += level.work.reduce((most, w) => Math.max(most, w), 0) * rate; // up to 2^16 nodes: no spread
        exchange += n === 1 ? 0 : (level.seconds ?? 0);
        bytes += level.bytesSent.reduce((sum, b) => sum + b, 0) + level.controlBytes.reduce((sum, b) => sum + b, 0);
        levels++;
      }
    }
    const k = sources.length;
    const seconds = (compute + exchange) / k;
    return {
      nodes: n,
      levels: levels / k,
      computeSeconds: compute / k,
      exchangeSeconds: exchange / k,
      seconds,
      bytes: bytes / k,
      speedup: one / seconds,
      efficiency: one / seconds / n,
    };
  });
  return {
    points,
    source: `predicted: searches at ${(rate * 1e9).toPrecision(3)} ns per scanned entry (measured on one node), exchanges on ${net.source}; ${method === 'metis' ? 'METIS' : 'row-block'} partitions`,
  };
}
