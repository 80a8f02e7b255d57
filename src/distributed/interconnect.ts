// What moving data between ranks costs, and what an exchange will take. An interconnect is a
// latency, a bandwidth and, where measured, the exchange times of a few sizes: on a real network
// the cost grows linearly with the bytes, but between ranks on one host the copies run through
// caches, and the effective bandwidth changes several-fold between 64 KiB and 8 MiB. An exchange's
// time is predicted from the larger direction of what each rank sends and receives, by linear
// interpolation between the measured sizes (latency and bandwidth beyond them), and the
// collective ends with its slowest rank.

import { describe, InvalidArgumentError } from '../errors.js';
import type { Layout } from './halo.js';
import type { Communicator } from './mpi.js';
import { turnOverCaches, turnoverBytesPerCore } from '../executor/cache-turnover.js';

export interface Interconnect {
  /** Seconds of a message of no bytes between two ranks. */
  readonly latencySeconds: number;
  /** Bytes per second one rank sends (and receives) to the others, each direction. */
  readonly bytesPerSecond: number;
  /** Where the figures come from. */
  readonly source: string;
  /**
   * Measured exchanges: the larger direction's bytes of one rank, and the seconds the exchange
   * took (ascending bytes), each after a kernel's worth of traffic through the caches.
   */
  readonly points?: readonly (readonly [number, number])[];
  /**
   * The same exchanges made back to back, the caches as the last exchange left them: what an
   * exchange takes after a short step (a thin BFS level), where `points` would price it 2-5x high.
   */
  readonly warmPoints?: readonly (readonly [number, number])[];
  /** Bytes a rank may touch between two exchanges and still find the second warm (its cores' L2: what `points` streamed). */
  readonly warmBelowBytes?: number;
}

/** Rounds of each size in an untimed pass, and how long the untimed passes go on at least. */
const WARM_ROUNDS = 3;
const WARM_MILLISECONDS = 500;

/** Whether every rank's clock is past its `until` (collective: the ranks agree). */
async function allPast(comm: Communicator, until: number): Promise<boolean> {
  const left = Float64Array.of(until - performance.now());
  await comm.allreduce(left, 'max');
  return left[0]! <= 0;
}

/**
 * Median of the per-round maxima across ranks of an alltoallv moving `bytes` to every peer, each
 * made as a run makes one: the caches turned over (a kernel ran before it) and the send buffer
 * just written (packed), the receive buffer out of cache. Back to back, with both buffers hot,
 * the same exchanges between two ranks of one host took a quarter to a third of what they took
 * in runs (16 KiB 7 us against 27, 1 MiB 68 us against 177), and every prediction was that low.
 */
async function timedExchange(comm: Communicator, bytes: number, rounds: number, cold = true): Promise<number> {
  const per = Math.max(1, Math.ceil(bytes / 8));
  const send = new Float64Array(per * comm.size);
  const recv = new Float64Array(per * comm.size);
  const counts = new Int32Array(comm.size).fill(per);
  counts[comm.rank] = 0; // nothing to itself: only what crosses between ranks
  const displs = Int32Array.from({ length: comm.size }, (_, r) => r * per);
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    if (cold) await turnOverCaches();
    send.fill(i);
    await comm.barrier();
    const t0 = performance.now();
    await comm.alltoallv(send, counts, displs, recv, counts, displs);
    const slowest = Float64Array.of((performance.now() - t0) / 1000);
    await comm.allreduce(slowest, 'max');
    times.push(slowest[0]!);
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1]!;
}

/**
 * Measure the communicator's exchange costs (collective): exchanges of 8 bytes, `largeBytes` / 16,
 * / 4, x 1 and x 4 to every other rank, `rounds` each, the slowest rank's median.
 */
export async function measureInterconnect(comm: Communicator, options: { readonly largeBytes?: number; readonly rounds?: number } = {}): Promise<Interconnect> {
  const fn = 'measureInterconnect';
  const large = options.largeBytes ?? 1 << 20;
  const rounds = options.rounds ?? 9;
  if (!Number.isInteger(large) || large < 1024 || large > 1 << 28)
    throw new InvalidArgumentError(`${fn}: largeBytes must be an integer in [1024, 2^28], got ${describe(large)}`);
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 1000)
    throw new InvalidArgumentError(`${fn}: rounds must be an integer in [1, 1000], got ${describe(rounds)}`);
  if (comm.size < 2) return { latencySeconds: 0, bytesPerSecond: Infinity, source: 'one rank: nothing crosses' };
  const peers = comm.size - 1;
  const sizes = [8, large >> 4, large >> 2, large, large << 2].filter((b, i, all) => b >= 8 && all.indexOf(b) === i);
  // Untimed passes first, for half a second: the transport's buffers touched, and the process past
  // its first moments, whose compiler threads took the rank's core (an 8-byte exchange 21-38 us
  // in a first pass, 6-9 us in later ones: runs come later).
  const warmUntil = performance.now() + WARM_MILLISECONDS;
  do for (const b of sizes) await timedExchange(comm, b, WARM_ROUNDS);
  while (!(await allPast(comm, warmUntil)));
  const points: [number, number][] = [];
  const warmPoints: [number, number][] = [];
  for (const b of sizes) {
    points.push([b * peers, await timedExchange(comm, b, rounds)]);
    warmPoints.push([b * peers, await timedExchange(comm, b, rounds, false)]);
  }
  const [first, last] = [points[0]!, points[points.length - 1]!];
  return {
    latencySeconds: first[1] / peers,
    bytesPerSecond: (last[0] - first[0]) / Math.max(last[1] - first[1], 1e-9),
    source: `measured on ${comm.size} ranks (${sizes.join(', ')} B to each peer, median of ${rounds}, each after a cache turnover as in a run)`,
    points,
    warmPoints,
    warmBelowBytes: turnoverBytesPerCore(),
  };
}

/**
 * Predicted seconds of an exchange in which this rank sends `send` and receives `recv` (counts in
 * elements of `elementBytes`), with the interconnect's figures: one latency per peer it talks to,
 * and its larger direction's bytes at the bandwidth; `warm` where the rank touched under
 * `net.warmBelowBytes` since its last exchange. The collective ends with the slowest rank: take
 * the maximum over ranks (`allreduce(..., 'max')`).
 */
export function predictExchange(send: Layout, recv: Layout, elementBytes: number, rank: number, net: Interconnect, warm = false): number {
  let peers = 0;
  let out = 0;
  let inn = 0;
  for (let r = 0; r < send.counts.length; r++) {
    if (r === rank) continue;
    const s = send.counts[r]!;
    const v = recv.counts[r]!;
    if (s > 0 || v > 0) peers++;
    out += s * elementBytes;
    inn += v * elementBytes;
  }
  const bytes = Math.max(out, inn);
  const pts = warm && net.warmPoints ? net.warmPoints : net.points;
  if (pts && pts.length >= 2) {
    // Linear between the measured sizes; beyond them, the nearest segment's slope.
    let i = 1;
    while (i < pts.length - 1 && pts[i]![0] < bytes) i++;
    const [b0, t0] = pts[i - 1]!;
    const [b1, t1] = pts[i]!;
    return Math.max(0, t0 + ((t1 - t0) * (bytes - b0)) / Math.max(b1 - b0, 1));
  }
  return peers * net.latencySeconds + bytes / net.bytesPerSecond;
}
