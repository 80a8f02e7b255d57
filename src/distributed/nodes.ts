// Planning with a node dimension (issue 26): how much of a graph each node of a cluster takes when
// the nodes differ. Each kind of node is planned alone on the whole input (its own devices, its
// best mapping by the cost model: a node with a GPU predicts the whole far faster than a CPU-only
// node), and each rank is given a share of the rows' work so that the slowest rank's predicted
// compute plus halo exchange is as short as it can be: shares start inverse to the kinds'
// predicted times and are corrected for each rank's exchange (a rank that talks more computes
// less), with the graph re-partitioned to those shares (row blocks or METIS with target weights)
// a few times. The front over which kinds of node take part (all, or only the fast ones) trades
// time for energy. Everything here is a prediction from the cost model and a declared or
// measured interconnect, never probed on the remote nodes, and says so in `source`.

import type { CostModel } from '../cost/model.js';
import { loadCostModel } from '../cost/store.js';
import type { CsrMatrix } from '../data/csr.js';
import { partitionMetis, partitionRows, partitionStats, type RowPartition } from '../data/partition.js';
import { buildSystem, System, type SystemDescription } from '../devices/system.js';
import { describe, InvalidArgumentError, UnsupportedError } from '../errors.js';
import { schedule } from '../scheduler/schedule.js';
import { formatSeconds } from '../units.js';
import { checkOptions } from '../validate.js';
import type { BoundWorkload, WorkloadData } from '../workloads/bind.js';
import type { Interconnect } from './interconnect.js';
import { nodeExchange, productBytes } from './scaling.js';

/** A kind of node: its devices, and how many of them the cluster has. */
export interface NodeKind {
  readonly name: string;
  /** Its devices and links: a description as `buildSystem` takes it, or a built system. */
  readonly system: SystemDescription | System;
  /** @default 1 */
  readonly count?: number;
}

export interface ClusterDescription {
  readonly nodes: readonly NodeKind[];
  /** The network between nodes (`measureInterconnect`, or declared with its source). */
  readonly interconnect: Interconnect;
}

export interface PlanNodesOptions {
  /** How the rows are given to ranks. @default 'rows' */
  readonly partitioner?: 'rows' | 'metis';
  /**
   * Each kind's cost model by name, built for that kind's `system` (a built one). @default the
   * stored calibration (`loadCostModel`), which prices devices it did not measure from their specifications
   */
  readonly models?: Readonly<Record<string, CostModel>>;
  /** Overrides of the workload's `params`. */
  readonly params?: Readonly<Record<string, number>>;
}

/** One rank's part of the plan (ranks in the order of `nodes`, each kind's `count` in a row). */
export interface RankShare {
  readonly rank: number;
  readonly node: string;
  /** Its target share of the rows' work (the partition's weight). */
  readonly weight: number;
  /** What the partition gave it: rows, and their share of the work (entries + rows). */
  readonly rows: number;
  readonly share: number;
  /** Predicted seconds: its rows on its node's mapping, its halo exchanges, and both. */
  readonly computeSeconds: number;
  readonly exchangeSeconds: number;
  readonly seconds: number;
}

/** A kind of node planned alone on the whole input. */
export interface KindAlone {
  readonly node: string;
  readonly seconds: number;
  readonly joules: number;
  readonly mapping: string;
  /** Its real devices the model did not calibrate (priced from their specifications), and why. */
  readonly uncalibrated: readonly string[];
}

/** One choice of which kinds take part, with its balanced shares. */
export interface NodesPoint {
  readonly nodes: readonly string[];
  readonly seconds: number;
  /** Modelled: each rank's share of its kind's energy, plus idle power while it waits for the slowest. */
  readonly joules: number;
}

export interface NodesPlan {
  readonly ranks: readonly RankShare[];
  /** Per rank, the partition weights (`runDistributed`'s `weights`). */
  readonly weights: readonly number[];
  readonly partition: RowPartition;
  /** The slowest rank's predicted seconds, with these shares and with equal ones. */
  readonly seconds: number;
  readonly equalSharesSeconds: number;
  readonly joules: number;
  readonly kinds: readonly KindAlone[];
  /** Pareto-optimal choices of the kinds that take part (time, energy), fastest first. */
  readonly front: readonly NodesPoint[];
  readonly explanation: readonly string[];
  /** What the figures rest on, for labels. */
  readonly source: string;
}

/** Re-partitions after the first, each correcting the shares for the exchanges the last one priced. */
const REBALANCES = 3;
/** Kinds up to which every subset is priced for the front (2^K - 1 of them); beyond, each kind alone and all. */
const MAX_KINDS_FOR_SUBSETS = 3;
const MAX_RANKS = 4096;

/**
 * Plan how much of `data`'s graph each node of `cluster` takes for `workload` (shipped name or
 * definition; its sparse operators must be SpMM or SpMV, whose halo exchange is priced here).
 * @throws {InvalidArgumentError} on a bad cluster or option; {UnsupportedError} for operators whose
 *   exchange is not priced (BFS) or a graph that is not square.
 * @example
 * const plan = await planNodes('gcn', graph, { nodes: [{ name: 'gpu', system: gpuNode }, { name: 'cpu', system: cpuNode, count: 3 }], interconnect });
 * plan.weights;   // per rank: pass to runDistributed(comm, 'gcn', graph, { weights })
 */
export async function planNodes(workload: unknown, data: WorkloadData, cluster: ClusterDescription, options: PlanNodesOptions = {}): Promise<NodesPlan> {
  const fn = 'planNodes';
  const opts = checkOptions(fn, options, ['partitioner', 'models', 'params']);
  const partitioner = opts.partitioner ?? 'rows';
  if (partitioner !== 'rows' && partitioner !== 'metis')
    throw new InvalidArgumentError(`${fn}: partitioner must be 'rows' or 'metis', got ${describe(partitioner)}`);
  const { kinds, net } = checkCluster(fn, cluster);
  const alone: KindAlone[] = [];
  let bound: BoundWorkload | undefined;
  for (const k of kinds) {
    const system = k.system;
    const model = opts.models?.[k.name] ?? (await loadCostModel(system));
    // The remote nodes cannot be probed from here: the model alone prices each kind.
    const plan = await schedule(workload as never, data, { system, model, probe: false, policy: 'min-time', ...(opts.params ? { params: opts.params } : {}) });
    bound ??= plan.problem.bound;
    const uncalibrated = system.devices.flatMap((d) => {
      const state = model.state(d);
      return !d.simulated && state.state === 'uncalibrated' ? [`${d.name} (${state.reason})`] : [];
    });
    alone.push({ node: k.name, seconds: plan.predicted.makespan, joules: plan.predicted.energy, mapping: plan.chosen.label, uncalibrated });
  }
  const graph = graphOf(fn, bound!);
  const idle = kinds.map((k) => k.system.devices.reduce((w, d) => w + d.power.idleWatts, 0));
  const price = pricing(graph, bound!, net, partitioner);
  const rankKinds = kinds.flatMap((k, i) => Array.from({ length: k.count }, () => i));
  const best = balance(price, rankKinds, alone, idle);
  const equal = price(rankKinds, alone, idle, undefined);
  const front = frontOf(price, kinds, alone, idle);
  const ranks = best.ranks.map((r, i) => ({ ...r, rank: i, node: kinds[rankKinds[i]!]!.name }));
  return {
    ranks,
    weights: best.weights,
    partition: best.partition,
    seconds: best.seconds,
    equalSharesSeconds: equal.seconds,
    joules: best.joules,
    kinds: alone,
    front,
    explanation: explain(alone, ranks, best.seconds, equal.seconds, kinds, front),
    source: `predicted: each kind of node planned alone by its cost model, not probed (a calibration prices only devices it measured; the others from their specifications), exchanges on ${net.source}; ${partitioner === 'metis' ? 'METIS' : 'row-block'} partitions with target weights`,
  };
}

interface Kind {
  readonly name: string;
  readonly system: System;
  readonly count: number;
}

function checkCluster(fn: string, cluster: unknown): { kinds: Kind[]; net: Interconnect } {
  const c = cluster as Partial<ClusterDescription> | null;
  if (c === null || typeof c !== 'object' || !Array.isArray(c.nodes) || c.nodes.length === 0)
    throw new InvalidArgumentError(`${fn}: cluster must be { nodes: [{ name, system, count }], interconnect }, got ${describe(cluster)}`);
  const net = c.interconnect;
  if (!(net !== null && typeof net === 'object' && net.latencySeconds >= 0 && net.bytesPerSecond > 0 && typeof net.source === 'string'))
    throw new InvalidArgumentError(`${fn}: cluster.interconnect must have latencySeconds >= 0, bytesPerSecond > 0 and a source, got ${describe(net)}`);
  const names = new Set<string>();
  const kinds = c.nodes.map((k, i): Kind => {
    if (k === null || typeof k !== 'object' || typeof k.name !== 'string' || k.name === '' || names.has(k.name))
      throw new InvalidArgumentError(`${fn}: cluster.nodes[${i}].name must be a name not used before, got ${describe(k?.name)}`);
    names.add(k.name);
    const count = k.count ?? 1;
    if (!Number.isInteger(count) || count < 1 || count > MAX_RANKS)
      throw new InvalidArgumentError(`${fn}: cluster.nodes[${i}].count must be an integer in [1, ${MAX_RANKS}], got ${describe(k.count)}`);
    const system = k.system instanceof System ? k.system : buildSystem(k.system, `${fn} cluster.nodes[${i}].system`);
    return { name: k.name, system, count };
  });
  const total = kinds.reduce((s, k) => s + k.count, 0);
  if (total > MAX_RANKS) throw new InvalidArgumentError(`${fn}: the cluster has ${total} nodes; at most ${MAX_RANKS}`);
  return { kinds, net };
}

/** The one sparse input, square, and every operator's exchange priced here. */
function graphOf(fn: string, bound: BoundWorkload): CsrMatrix {
  const sparse = bound.values.filter((v) => v.kind === 'sparse' && v.producer < 0);
  const g = sparse[0]?.data as CsrMatrix | undefined;
  if (!g || g.rows !== g.cols) throw new UnsupportedError(`${fn}: workload ${bound.name} needs one square sparse input (a graph) to partition`);
  const odd = bound.ops.find((o) => o.kind === 'bfs' || o.kind === 'msbfs' || o.kind === 'sddmm' || o.kind === 'edge-softmax');
  if (odd) throw new UnsupportedError(`${fn}: operator ${odd.id} (${odd.kind}): its exchange across nodes is not priced here yet (SpMM and SpMV are)`);
  return g;
}

interface Priced {
  readonly ranks: Omit<RankShare, 'rank' | 'node'>[];
  readonly weights: number[];
  readonly partition: RowPartition;
  readonly seconds: number;
  readonly joules: number;
}

type Price = (rankKinds: readonly number[], alone: readonly KindAlone[], idle: readonly number[], weights: number[] | undefined) => Priced;

/** Prices ranks of the given kinds under a partition with these weights (undefined: equal). */
function pricing(graph: CsrMatrix, bound: BoundWorkload, net: Interconnect, partitioner: 'rows' | 'metis'): Price {
  const bytes = bound.precision === 'f64' ? 8 : 4;
  // Columns of X each exchanging operator moves per halo row.
  const widths = bound.ops
    .filter((o) => o.kind === 'spmm' || o.kind === 'spmv')
    .map((o) => (o.kind === 'spmv' ? 1 : (bound.values[o.operands[1]!]!.cols ?? 1)));
  const total = graph.nnz + graph.rows;
  return (rankKinds, alone, idle, weights) => {
    const parts = rankKinds.length;
    const options = weights ? { weights } : {};
    const partition =
      parts === 1 ? partitionRows(graph, 1) : partitioner === 'metis' ? partitionMetis(graph, parts, options) : partitionRows(graph, parts, options);
    const stats = partitionStats(graph, partition);
    const sum = weights ? weights.reduce((s, x) => s + x, 0) : parts;
    const ranks = stats.parts.map((p, r) => {
      const kind = alone[rankKinds[r]!]!;
      const share = (p.entries + p.rows) / total;
      const computeSeconds = share * kind.seconds;
      let exchangeSeconds = 0;
      if (parts > 1)
        for (const w of widths) exchangeSeconds += nodeExchange(p.peers, p.sends * w, p.halo * w, bytes, net, productBytes(p.entries, p.rows, w, bytes));
      return {
        weight: (weights ? weights[r]! : 1) / sum,
        rows: p.rows,
        share,
        computeSeconds,
        exchangeSeconds,
        seconds: computeSeconds + exchangeSeconds,
      };
    });
    const seconds = Math.max(...ranks.map((r) => r.seconds));
    let joules = 0;
    ranks.forEach((r, i) => {
      joules += r.share * alone[rankKinds[i]!]!.joules + idle[rankKinds[i]!]! * (seconds - r.seconds);
    });
    return { ranks, weights: ranks.map((r) => r.weight), partition, seconds, joules };
  };
}

/**
 * Shares inverse to each rank's kind's time alone, then corrected for the exchanges: with each
 * rank's exchange X_r and time alone T_r, the shares (M - X_r) / T_r that sum to 1 end every rank
 * at M. Re-partitioned each time; the best priced is kept.
 */
function balance(price: Price, rankKinds: readonly number[], alone: readonly KindAlone[], idle: readonly number[]): Priced {
  const T = rankKinds.map((k) => Math.max(alone[k]!.seconds, 1e-12));
  let weights = T.map((t) => 1 / t);
  let best = price(rankKinds, alone, idle, weights);
  let last = best;
  for (let i = 0; i < REBALANCES && rankKinds.length > 1; i++) {
    const X = last.ranks.map((r) => r.exchangeSeconds);
    const M = (1 + X.reduce((s, x, r) => s + x / T[r]!, 0)) / T.reduce((s, t) => s + 1 / t, 0);
    // A rank whose exchange alone outlasts M still keeps a sliver: every rank holds some rows.
    weights = T.map((t, r) => Math.max(M - X[r]!, 1e-3 * M) / t);
    last = price(rankKinds, alone, idle, weights);
    if (last.seconds < best.seconds) best = last;
  }
  return best;
}

/** The Pareto-optimal choices of which kinds take part (each with its balanced shares). */
function frontOf(price: Price, kinds: readonly Kind[], alone: readonly KindAlone[], idle: readonly number[]): NodesPoint[] {
  const K = kinds.length;
  const subsets: number[][] = [];
  if (K <= MAX_KINDS_FOR_SUBSETS) for (let m = 1; m < 1 << K; m++) subsets.push(kinds.flatMap((_, i) => ((m >> i) & 1 ? [i] : [])));
  else
    subsets.push(
      ...kinds.map((_, i) => [i]),
      kinds.map((_, i) => i),
    );
  const points = subsets.map((set) => {
    const rankKinds = set.flatMap((i) => Array.from({ length: kinds[i]!.count }, () => i));
    const p = balance(price, rankKinds, alone, idle);
    return { nodes: set.map((i) => kinds[i]!.name), seconds: p.seconds, joules: p.joules };
  });
  const front = points.filter(
    (p) => !points.some((q) => q !== p && q.seconds <= p.seconds && q.joules <= p.joules && (q.seconds < p.seconds || q.joules < p.joules)),
  );
  return front.sort((a, b) => a.seconds - b.seconds);
}

function explain(
  alone: readonly KindAlone[],
  ranks: readonly RankShare[],
  seconds: number,
  equal: number,
  kinds: readonly Kind[],
  front: readonly NodesPoint[],
): string[] {
  const lines = alone.map(
    (k) =>
      `${k.node} alone on the whole input: ${formatSeconds(k.seconds)} predicted (${k.mapping})${k.uncalibrated.length ? `; from specifications, not calibrated: ${k.uncalibrated.join(', ')}` : ''}.`,
  );
  for (const k of kinds) {
    const mine = ranks.filter((r) => r.node === k.name);
    const share = mine.reduce((s, r) => s + r.share, 0);
    const x = Math.max(...mine.map((r) => r.exchangeSeconds));
    lines.push(
      `${k.count} ${k.name} node${k.count === 1 ? '' : 's'} take${k.count === 1 ? 's' : ''} ${(100 * share).toFixed(1)}% of the rows' work (${(100 * (share / k.count)).toFixed(1)}% each), exchanging up to ${formatSeconds(x)} a run.`,
    );
  }
  const gain = equal / seconds;
  lines.push(`Predicted ${formatSeconds(seconds)} a run with these shares, against ${formatSeconds(equal)} with equal ones (${gain.toFixed(2)}x).`);
  const fastest = front[0];
  if (fastest && fastest.nodes.length < kinds.length && fastest.seconds < seconds)
    lines.push(
      `Faster still: ${fastest.nodes.join(' and ')} alone, ${formatSeconds(fastest.seconds)} predicted: the exchanges with the other nodes cost more than the rows they would take save.`,
    );
  return lines;
}
