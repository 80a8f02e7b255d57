// What moving data between ranks costs, and what an exchange will take. An interconnect is a
// latency, a bandwidth and, where measured, the exchange times of a few sizes: on a real network
// the cost grows linearly with the bytes, but between ranks on one host the copies run through
// caches, and the effective bandwidth changes several-fold between 64 KiB and 8 MiB. An exchange's
// time is predicted from the larger direction of what each rank sends and receives, by linear
// interpolation between the measured sizes (latency and bandwidth beyond them), and the
// collective ends with its slowest rank.

import { checkInt, checkNumber } from '../validate.js';
import { describe, InvalidArgumentError } from '../errors.js';
import type { Layout } from './halo.js';
import type { Communicator } from './mpi.js';
import { turnOverCaches, turnoverBytesPerCore } from '../executor/cache-turnover.js';
import { onOneHost } from './exchange-timing.js';

export interface Interconnect {
  /** Seconds of a message of no bytes between two ranks. */
  readonly latencySeconds: number;
  /** Bytes per second one rank sends (and receives) to the others, each direction. */
  readonly bytesPerSecond: number;
  /** Where the figures come from. */
  readonly source: string;
  /**
   * Measured exchanges: the larger direction's bytes of one rank, and the seconds the exchange
   * took (ascending bytes), each after a kernel's worth of traffic (an L2) through the caches.
   */
  readonly points?: readonly (readonly [number, number])[];
  /**
   * The same exchanges with the caches in other states, by the bytes a rank touched since its last
   * exchange (ascending): none (back to back), an L2 (`points`), and a large operator's worth.
   * An exchange finds the transport's state and the buffers as the work before it left them: on
   * the 2-vCPU VM a 64 KiB exchange took 11 us back to back and 19 us after 64 MB of traffic.
   */
  readonly cacheStates?: readonly CacheState[];
}

/** Exchanges measured after a rank touched `touchedBytes` (ascending sizes, as `Interconnect.points`). */
export interface CacheState {
  readonly touchedBytes: number;
  readonly points: readonly (readonly [number, number])[];
}

/** The largest state measured: a large operator's traffic between two exchanges (a BFS level's scan of Kronecker 20 at two ranks is 60-120 MB). */
const DEEP_TOUCHED_BYTES = 64 << 20;

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
 * Median over rounds of an alltoallv moving `bytes` to every peer, each made as a run makes one:
 * after `before` (the work that leaves the caches in some state), the send buffer just written
 * (packed), one rank arriving late, timed from its arrival. Entered together on hot buffers, the
 * same exchanges between two ranks of one host took a quarter to a third of what they took after
 * a kernel's traffic (16 KiB 7 us against 27, 1 MiB 68 us against 177).
 */
async function timedExchange(comm: Communicator, bytes: number, rounds: number, before: () => Promise<void> | void): Promise<number> {
  const per = Math.max(1, Math.ceil(bytes / 8));
  const send = new Float64Array(per * comm.size);
  const recv = new Float64Array(per * comm.size);
  const counts = new Int32Array(comm.size).fill(per);
  counts[comm.rank] = 0; // nothing to itself: only what crosses between ranks
  const displs = Int32Array.from({ length: comm.size }, (_, r) => r * per);
  const times: number[] = [];
  const oneClock = onOneHost(comm);
  for (let i = 0; i < rounds; i++) {
    await before();
    send.fill(i);
    await comm.barrier();
    // One rank (in turn) arrives late, as in a run, where the ranks' work before an exchange
    // differs: two ranks entering together moved 8 B in 1.3 us and 64 KiB in 11 us; with one
    // 1 ms behind, 6 and 17 us from its arrival (the others' progress gone cold while they waited).
    if (comm.rank === i % comm.size) spinFor(ARRIVAL_SKEW_MS);
    const t0 = performance.now();
    const stamps = await comm.alltoallv(send, counts, displs, recv, counts, displs);
    const seconds = (performance.now() - t0) / 1000;
    // From the last rank's arrival to the last completion where the ranks share a clock (as runs
    // are timed: exchange-timing.ts); else the slowest rank's own call.
    const [entered, completed] =
      oneClock && stamps?.enteredAt !== undefined && stamps.completedAt !== undefined ? [stamps.enteredAt, stamps.completedAt] : [0, seconds];
    const last = Float64Array.of(entered, completed);
    await comm.allreduce(last, 'max');
    times.push(last[1]! - last[0]!);
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1]!;
}

/** How far behind the others one rank enters each timed exchange. */
const ARRIVAL_SKEW_MS = 1;

/** Keep the thread busy for `ms` milliseconds (a rank still computing). */
function spinFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** Read and write one float of every cache line of `a`: its bytes through the caches, as a large operator's. */
function touchLines(a: Float32Array): void {
  for (let i = 0; i < a.length; i += 16) a[i] = a[i]! + 1;
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
  do for (const b of sizes) await timedExchange(comm, b, WARM_ROUNDS, turnOverCaches);
  while (!(await allPast(comm, warmUntil)));
  const deep = new Float32Array(DEEP_TOUCHED_BYTES / 4);
  const states: { touchedBytes: number; before: () => Promise<void> | void; points: [number, number][] }[] = [
    { touchedBytes: 0, before: () => undefined, points: [] },
    { touchedBytes: turnoverBytesPerCore(), before: turnOverCaches, points: [] },
    { touchedBytes: DEEP_TOUCHED_BYTES, before: () => touchLines(deep), points: [] },
  ];
  for (const b of sizes) for (const st of states) st.points.push([b * peers, await timedExchange(comm, b, rounds, st.before)]);
  const points = states[1]!.points;
  const [first, last] = [points[0]!, points[points.length - 1]!];
  return {
    latencySeconds: first[1] / peers,
    bytesPerSecond: (last[0] - first[0]) / Math.max(last[1] - first[1], 1e-9),
    source: `measured on ${comm.size} ranks (${sizes.join(', ')} B to each peer, median of ${rounds}, one rank ${ARRIVAL_SKEW_MS} ms late, timed from its arrival, after an L2 of traffic; also after none and ${DEEP_TOUCHED_BYTES >> 20} MB)`,
    points,
    cacheStates: states.map(({ touchedBytes, points: p }) => ({ touchedBytes, points: p })),
  };
}

/** Seconds at `bytes` on measured points: linear between the sizes, the nearest segment's slope beyond them. */
function onPoints(pts: readonly (readonly [number, number])[], bytes: number): number {
  let i = 1;
  while (i < pts.length - 1 && pts[i]![0] < bytes) i++;
  const [b0, t0] = pts[i - 1]!;
  const [b1, t1] = pts[i]!;
  return Math.max(0, t0 + ((t1 - t0) * (bytes - b0)) / Math.max(b1 - b0, 1));
}

/** A first-level data cache's bytes: work under it leaves the caches much as an exchange left them. */
const L1_BYTES = 32 << 10;

/** Seconds at `bytes` after `touched` bytes of other work: between the two nearest cache states, linear in log(1 + touched / L1). */
function onStates(states: readonly CacheState[], bytes: number, touched: number): number {
  const x = (t: number): number => Math.log2(1 + t / L1_BYTES);
  if (touched <= states[0]!.touchedBytes) return onPoints(states[0]!.points, bytes);
  let i = 1;
  while (i < states.length - 1 && states[i]!.touchedBytes < touched) i++;
  const [lo, hi] = [states[i - 1]!, states[i]!];
  const f = Math.min(1, (x(touched) - x(lo.touchedBytes)) / Math.max(x(hi.touchedBytes) - x(lo.touchedBytes), 1e-9));
  return onPoints(lo.points, bytes) * (1 - f) + onPoints(hi.points, bytes) * f;
}

/** @throws {InvalidArgumentError} naming `predictExchange`'s argument at fault. */
function checkExchangeArguments(send: unknown, recv: unknown, elementBytes: unknown, rank: unknown, net: unknown, touchedBytes: unknown): void {
  const fn = 'predictExchange';
  const counts = (what: string, layout: unknown): Int32Array => {
    const c = (layout as Partial<Layout> | null)?.counts;
    if (typeof layout !== 'object' || !(c instanceof Int32Array))
      throw new InvalidArgumentError(`${fn}: ${what} must be a layout { counts, displs } of Int32Arrays, got ${describe(layout)}`);
    return c;
  };
  const ranks = counts('send', send).length;
  if (counts('recv', recv).length !== ranks) throw new InvalidArgumentError(`${fn}: send counts ${ranks} ranks, recv ${counts('recv', recv).length}`);
  checkInt(fn, 'rank', rank, 0, Math.max(0, ranks - 1));
  checkNumber(fn, 'elementBytes', elementBytes, 1, 1 << 20);
  const n = net as Partial<Interconnect> | null;
  if (typeof net !== 'object' || n === null || !(Number(n.latencySeconds) >= 0) || !(Number(n.bytesPerSecond) > 0))
    throw new InvalidArgumentError(`${fn}: net must be an Interconnect (latencySeconds >= 0, bytesPerSecond > 0: measureInterconnect), got ${describe(net)}`);
  if (touchedBytes !== undefined) checkNumber(fn, 'touchedBytes', touchedBytes, 0);
}

/**
 * Predicted seconds of an exchange in which this rank sends `send` and receives `recv` (counts in
 * elements of `elementBytes`), with the interconnect's figures: one latency per peer it talks to,
 * and its larger direction's bytes at the bandwidth. With `touchedBytes` (what the rank's work
 * since its last exchange passed through its caches) and measured cache states, priced between
 * the two nearest states; else on `points`. The collective ends with the slowest rank: take the
 * maximum over ranks (`allreduce(..., 'max')`).
 */
export function predictExchange(send: Layout, recv: Layout, elementBytes: number, rank: number, net: Interconnect, touchedBytes?: number): number {
  checkExchangeArguments(send, recv, elementBytes, rank, net, touchedBytes);
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
  const states = net.cacheStates;
  if (touchedBytes !== undefined && states && states.length >= 1 && states.every((st) => st.points.length >= 2)) return onStates(states, bytes, touchedBytes);
  const pts = net.points;
  if (pts && pts.length >= 2) return onPoints(pts, bytes);
  return peers * net.latencySeconds + bytes / net.bytesPerSecond;
}
