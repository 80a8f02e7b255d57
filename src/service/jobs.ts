// What the service's dispatcher (fair-scheduler.ts) runs: a job's spec, what it is told when it
// starts, what it returns, and the handle its submitter keeps; and how the dispatcher is set.

import type { DeviceAllowance } from '../executor/allowance.js';

/** What a job is told when it starts. */
export interface JobContext {
  readonly signal: AbortSignal;
  /** Devices the tenant may not use (outside its partition, or over quota): plan without them. */
  readonly exclude: readonly string[];
  /** When the job arrived, service seconds. */
  readonly arrival: number;
  /**
   * Where the tenant has quotas: the run's allowance (`runPlan`'s `allowance`), which refuses a
   * device once the quota is reached, piece by piece, and charges each piece as it ends.
   */
  readonly allowance?: DeviceAllowance;
  /**
   * Wait for `wait` with the job's host slot given to other jobs meanwhile (its state shows
   * `waiting for memory`), then take a slot again ahead of new jobs: how a job waits for its
   * tenant's other jobs to give memory back (job-memory.ts).
   */
  readonly waitAside?: (wait: () => Promise<void>) => Promise<void>;
}

/** What a job returns: its value, the busy seconds it put on each device, and what it asked of the machine. */
export interface JobOutcome<T> {
  readonly value: T;
  readonly usage: ReadonlyMap<string, number>;
  /**
   * Seconds of work the job asked for, wherever the backlog sent it: its operators each on their
   * fastest device (`CostTable.demandSeconds`). Its tenant's fair share is charged this; without
   * it, the seconds in `usage`.
   */
  readonly demand?: number;
}

export interface JobSpec<T> {
  readonly tenant: string;
  /** The request type (`schedule`, `run`, ...), for messages and status. */
  readonly kind: string;
  /** Seconds from submission after which the job is cancelled, queued or running. */
  readonly timeout?: number;
  /** When the job arrived, service seconds. @default the scheduler's clock at submission */
  readonly arrival?: number;
  /** Devices the job will use whatever its plan (a run of a kept plan): it waits while any is over quota. */
  readonly needs?: readonly string[];
  run(ctx: JobContext): Promise<JobOutcome<T>>;
}

export interface JobHandle<T> {
  readonly id: string;
  readonly result: Promise<T>;
}

/** How the dispatcher chooses: `fair` (priority, then weighted fair queuing), or `fifo` (arrival order, the exclusive baseline). */
export type DispatchOrder = 'fair' | 'fifo';

export interface DispatchSettings {
  readonly order?: DispatchOrder;
  /**
   * The latest arrival that may start now: jobs that arrived later wait even when the host is free
   * (in replay, the machine has not reached them). @default the scheduler's clock
   */
  readonly horizon?: () => number;
  /**
   * Slots are a window of jobs open at once (operator turns), not the host's cores: a tenant with
   * work waiting that holds fewer open jobs than its weighted share of the window may open one
   * beyond it. Else a tenant that came a moment late found the window full of the first tenants'
   * jobs and had no job open for their whole length (the load bench: four of eight tenants waited
   * 1.8 ms of a 6 ms cut). @default false
   */
  readonly fairWindow?: boolean;
  /** Called when a job just submitted has to wait (the server then asks kept leases back). */
  readonly queued?: () => void;
}
