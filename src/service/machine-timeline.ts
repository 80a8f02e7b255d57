// The served machine's one timeline: when each device and each link direction is next free, across
// every tenant's jobs, on the service clock (seconds since the server started, or the arrivals
// clients declare in replay mode). A job is planned against the backlog its arrival finds, runs,
// and leaves each device when its composed timeline says, so independent jobs co-run on different
// devices (space sharing) and a busy device's queue is part of its cost.
//
// Times are composed, as a run's own timeline is: real devices by their measured piece times,
// simulators by their simulated ones. The host executes one job at a time (the dispatcher's one
// slot), so a CPU piece is timed without another job's simulator on the same cores; the co-running
// is in the composed timeline, which is what the devices would do.
//
// `exclusive` is the baseline the load bench compares with: each job holds the whole machine from
// its start to its end (first come, first served), whatever its plan uses.

import { pieceUse } from '../executor/allowance.js';
import type { RunResult } from '../executor/run.js';
import type { Backlog } from '../scheduler/backlog.js';

export type Sharing = 'shared' | 'exclusive';
export const SHARING: readonly Sharing[] = ['shared', 'exclusive'];
/** How jobs share the machine's timeline: whole (`job`) or interleaved operator by operator (`operator`, interleaver.ts). */
export type Granularity = 'job' | 'operator';
export const GRANULARITY: readonly Granularity[] = ['job', 'operator'];

/** Where a job sat on the machine's timeline, in service seconds. */
export interface MachineSlot {
  readonly arrival: number;
  /** When it could first start: the earliest end of the backlog it found on the devices and links it used. */
  readonly start: number;
  readonly finish: number;
  /** finish - arrival: waiting included. */
  readonly turnaround: number;
  /** Composed from measured and simulated piece times, not read off one clock. */
  readonly composed: true;
  /**
   * The job's device work on the machine's clock: each piece (whole jobs) or each operator
   * (operator turns) with when it started and finished there and the device seconds it took.
   */
  readonly work?: readonly MachineWork[];
}

/** One piece or operator of a job on the machine's timeline, service seconds. */
export interface MachineWork {
  readonly start: number;
  readonly finish: number;
  /** Device seconds (every device it used). */
  readonly seconds: number;
  /** The same seconds by device (a fair share by device, or by dominant share, reads them). */
  readonly devices: Readonly<Record<string, number>>;
}

export class MachineTimeline {
  readonly #free = new Map<string, number>();

  constructor(
    /** Device names and link directions (backlogNames). */
    readonly names: readonly string[],
    readonly devices: readonly string[],
    readonly sharing: Sharing,
  ) {
    for (const n of names) this.#free.set(n, 0);
  }

  /** The earliest moment some device is free: jobs that arrived before it are waiting for the machine. */
  get earliestFree(): number {
    let t = Infinity;
    for (const d of this.devices) t = Math.min(t, this.#free.get(d)!);
    return t;
  }

  /** The latest any device or link is busy until. */
  get latestFree(): number {
    let t = 0;
    for (const v of this.#free.values()) t = Math.max(t, v);
    return t;
  }

  /** What a job arriving at `arrival` finds queued ahead of it, seconds per device and link direction. */
  backlogAt(arrival: number): Backlog {
    const out: Record<string, number> = {};
    if (this.sharing === 'exclusive') {
      const wait = Math.max(0, this.latestFree - arrival);
      if (wait > 0) for (const n of this.names) out[n] = wait;
      return out;
    }
    for (const [n, free] of this.#free) if (free > arrival) out[n] = free - arrival;
    return out;
  }

  /**
   * Put a finished job on the timeline: it arrived at `arrival`, found `backlog`, and its
   * composed run left each device and link at `busyUntil` (seconds from its arrival).
   */
  commit(arrival: number, backlog: Backlog, busyUntil: Readonly<Record<string, number>>, makespan: number): MachineSlot {
    let start = Infinity;
    for (const n of this.names) {
      const until = busyUntil[n] ?? 0;
      const ahead = backlog[n] ?? 0;
      // Used by this job: it ends there later than the work it found.
      if (until > ahead) {
        this.#free.set(n, Math.max(this.#free.get(n)!, arrival + until));
        start = Math.min(start, arrival + ahead);
      }
    }
    const finish = arrival + makespan;
    if (this.sharing === 'exclusive') for (const n of this.names) this.#free.set(n, Math.max(this.#free.get(n)!, finish));
    if (!Number.isFinite(start)) start = arrival;
    return { arrival, start, finish, turnaround: finish - arrival, composed: true };
  }

  /**
   * Put a job that holds the machine on the timeline (a stream, whose inputs overlap in a pipeline
   * of their own): it starts when every device is free, and holds `used` for `seconds`.
   */
  hold(arrival: number, used: readonly string[], seconds: number): MachineSlot {
    const start = Math.max(arrival, this.latestFree);
    const finish = start + seconds;
    for (const n of this.sharing === 'exclusive' ? this.names : used) if (this.#free.has(n)) this.#free.set(n, finish);
    return { arrival, start, finish, turnaround: finish - arrival, composed: true };
  }

  /** A piece or copy placed by the operator interleaver: the devices and links it used are busy until then. */
  occupy(busyUntil: Readonly<Record<string, number>>): void {
    for (const [n, t] of Object.entries(busyUntil)) if (this.#free.has(n)) this.#free.set(n, Math.max(this.#free.get(n)!, t));
  }

  /** When each device and link direction is next free, service seconds. */
  snapshot(): Record<string, number> {
    return Object.fromEntries(this.#free);
  }
}

/** A run's pieces as machine work, `offset` seconds later (a job's arrival on the service clock). */
export function workOf(result: Pick<RunResult, 'pieces'>, offset = 0): MachineWork[] {
  return result.pieces.map((p) => ({
    start: offset + p.start,
    finish: offset + p.finish,
    seconds: p.observedSeconds,
    devices: Object.fromEntries(pieceUse(p.device, p.observedSeconds, p.steps)),
  }));
}

/** Busy seconds per device over `work`. */
export function deviceSeconds(work: readonly MachineWork[]): Map<string, number> {
  const usage = new Map<string, number>();
  for (const w of work) for (const [d, sec] of Object.entries(w.devices)) usage.set(d, (usage.get(d) ?? 0) + sec);
  return usage;
}
