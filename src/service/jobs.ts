// What the service's dispatcher (fair-scheduler.ts) runs: a job's spec, what it is told when it
// starts, what it returns, and the handle its submitter keeps.

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
