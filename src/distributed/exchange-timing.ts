// An exchange's time, split into waiting for the last rank and moving the bytes. A rank that
// reaches a collective first waits there until the last one arrives, and MPI counts that wait as
// the collective's: on two ranks of a two-core VM a 15 KB halo exchange took 1.4-14 ms while its
// bytes moved in 0.06 ms, the rest being the other rank still computing. What a planner predicts
// for an exchange is the bytes' time (latency and bandwidth); the wait is load imbalance between
// the ranks, which it prices, if at all, in their compute. So each exchange's moments on every
// rank (when it entered, when it saw the exchange complete) are gathered once a run ends, and
// each rank's exchange is counted from the last rank's arrival to its own completion; the time
// before that is its wait.
//
// The moments are read on each host's monotonic clock. Ranks on one host share it; across hosts
// each rank's offset from rank 0's clock is estimated once per communicator from the moments the
// ranks leave a few barriers (a barrier releases every rank within about a message latency).

import { InvalidArgumentError } from '../errors.js';
import { median } from '../stats.js';
import type { CollectiveTiming, Communicator } from './mpi.js';

/** When this rank entered an exchange and when it saw it complete, seconds on its host's monotonic clock. */
export interface ExchangeSpan {
  readonly enteredAt: number;
  readonly completedAt: number;
}

/** This rank's exchanges of a run, split: from the last rank's arrival to completion, and the wait before it. */
export interface ExchangeSplit {
  /** Seconds from the last rank's arrival to this rank's completion, summed over the exchanges: moving the bytes. */
  readonly transferSeconds: number;
  /** Seconds this rank waited in the exchanges for the last rank to arrive, summed: load imbalance between ranks. */
  readonly waitSeconds: number;
}

/** Seconds on this host's monotonic clock, the clock MPI's collectives stamp (CLOCK_MONOTONIC). */
export const monotonicSeconds = (): number => Number(process.hrtime.bigint()) / 1e9;

/** The span of one or more collectives that make up one exchange (the first's entry to the last's completion), where the communicator stamps them. */
export function spanOf(first: CollectiveTiming | undefined, last: CollectiveTiming | undefined = first): ExchangeSpan | undefined {
  if (!first || !last || first.enteredAt === undefined || last.completedAt === undefined) return undefined;
  return { enteredAt: first.enteredAt, completedAt: last.completedAt };
}

/** Whether every rank of `comm` runs on this host (one monotonic clock), where the communicator says. */
export const onOneHost = (comm: Communicator): boolean => 'wait' in comm && (comm as { wait: { localRanks: number } }).wait.localRanks === comm.size;

/** Barriers whose exit moments estimate the ranks' clock offsets across hosts. */
const OFFSET_ROUNDS = 7;
const offsets = new WeakMap<Communicator, Float64Array>();

/** Each rank's monotonic clock minus rank 0's, seconds (zero where all ranks share one host). */
async function clockOffsets(comm: Communicator, oneHost: boolean): Promise<Float64Array> {
  const known = offsets.get(comm);
  if (known) return known;
  const result = new Float64Array(comm.size);
  if (!oneHost) {
    const rounds: Float64Array[] = [];
    const counts = new Int32Array(comm.size).fill(1);
    const displs = Int32Array.from({ length: comm.size }, (_, r) => r);
    for (let i = 0; i < OFFSET_ROUNDS; i++) {
      await comm.barrier();
      const left = Float64Array.of(monotonicSeconds());
      const all = new Float64Array(comm.size);
      await comm.allgatherv(left, all, counts, displs);
      rounds.push(all);
    }
    for (let q = 0; q < comm.size; q++) result[q] = median(rounds.map((all) => all[q]! - all[0]!));
  }
  offsets.set(comm, result);
  return result;
}

/**
 * Split this rank's exchanges (`spans`, in the order every rank made them) by the last rank's
 * arrival at each (collective: every rank calls it once per run, with one span per exchange).
 * Undefined where some rank's communicator gave no moments (a stand-in without clocks).
 * @throws {InvalidArgumentError} when the ranks made different numbers of exchanges.
 */
export async function splitExchanges(comm: Communicator, spans: readonly (ExchangeSpan | undefined)[]): Promise<ExchangeSplit | undefined> {
  const fn = 'splitExchanges';
  const m = spans.length;
  const stamped = spans.every((s) => s !== undefined) ? 1 : 0;
  // Every rank's count and whether it has moments, in one reduction: [m, -m, stamped].
  const agree = Float64Array.of(m, -m, stamped);
  await comm.allreduce(agree, 'min');
  if (-agree[1]! !== agree[0]!) throw new InvalidArgumentError(`${fn}: the ranks made different numbers of exchanges (${m} here)`);
  if (agree[2] === 0 || m === 0) return m === 0 ? { transferSeconds: 0, waitSeconds: 0 } : undefined;
  const offset = await clockOffsets(comm, onOneHost(comm));
  const entered = new Float64Array(m * comm.size);
  await comm.allgatherv(
    Float64Array.from(spans, (s) => s!.enteredAt),
    entered,
    new Int32Array(comm.size).fill(m),
    Int32Array.from({ length: comm.size }, (_, r) => r * m),
  );
  let transferSeconds = 0;
  let waitSeconds = 0;
  for (let i = 0; i < m; i++) {
    let last = -Infinity;
    for (let q = 0; q < comm.size; q++) last = Math.max(last, entered[q * m + i]! - offset[q]!);
    const own = spans[i]!;
    transferSeconds += Math.max(0, own.completedAt - offset[comm.rank]! - last);
    waitSeconds += Math.max(0, last - (own.enteredAt - offset[comm.rank]!));
  }
  return { transferSeconds, waitSeconds };
}
