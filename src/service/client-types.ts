// The public types of the `dype serve` client (client.ts): the options of served calls and the
// shapes of their results.

import type { CsrMatrix } from '../data/csr.js';
import type { DenseMatrix } from '../data/dense.js';
import type { RunPlanOptions, RunResult } from '../executor/run.js';
import type { StreamResult, RunStreamOptions } from '../executor/stream.js';
import type { ExploreOptions, PlanResult, ScheduleOptions } from '../scheduler/schedule.js';
import type { SchedulerStatus } from './fair-scheduler.js';
import type { MachineSlot } from './machine-timeline.js';

export interface ConnectOptions {
  /** The tenant's token (`DYPE_TOKEN` when absent). */
  readonly token?: string;
  /** Seconds to wait for the connection and handshake. @default 10 */
  readonly timeout?: number;
  /**
   * Upload large matrices through shared memory when the server offers it (a Unix socket on
   * Linux): the arrays are written once into a region the server maps, not copied through the
   * socket. Where the region cannot be opened, uploads go through the socket. @default true
   */
  readonly sharedMemory?: boolean;
  /**
   * While a reply is awaited, poll for it for up to this many microseconds instead of sleeping (a
   * thread that slept runs what follows 3-5x slower on small VMs; polling stops by itself while
   * replies keep coming later than this). 0 turns it off. @default 1000
   */
  readonly pollMicroseconds?: number;
}

/** Options the server owns are left out: it plans on its own machine with its own model. */
export type ServedScheduleOptions = Omit<ScheduleOptions, 'system' | 'model'> & ServedJobOptions;
export type ServedExploreOptions = Omit<ExploreOptions, 'system' | 'model'> & ServedJobOptions;
export type ServedRunOptions = Pick<RunPlanOptions, 'signal' | 'replan' | 'learn' | 'bfsLevels' | 'recoverDeviceFailures'> & ServedJobOptions;

/** `runHere`'s options: a served run's, and whether to keep the lease for the next run of the plan. */
export type RunHereOptions = ServedRunOptions & {
  /**
   * Keep the devices granted after the run, so that the next `runHere` of the same plan starts
   * without asking (it pays only the record's send). The server asks for them back when another
   * job waits, when they idle a quarter of a second, or when it drains; this client gives them
   * back at once, or after the run in progress. Not where the tenant has quotas. @default false
   */
  readonly keepLease?: boolean;
};

/** The run's own settings inside a `run` request (the job's options are the request's). */
export type ServedRunSettings = Omit<ServedRunOptions, keyof ServedJobOptions>;
/** The stream's own run settings inside a `stream` request. */
export type ServedStreamSettings = Pick<RunStreamOptions, 'replan' | 'bfsLevels' | 'recoverDeviceFailures' | 'featureThreshold'>;

export interface ServedJobOptions {
  /** Seconds after which the server cancels the job, queued or running. */
  readonly timeout?: number;
  /** Cancels the job on the server (a cancel request); the call rejects with an {@link AbortedError}. */
  readonly signal?: AbortSignal;
  /** When the job arrives, service seconds: only on a server replaying declared arrivals (`clock: 'declared'`). */
  readonly arrival?: number;
  /**
   * An idempotency key (1 to 128 printable characters): sending the same request again with it,
   * from any connection of this tenant, joins the job already made instead of running it twice,
   * and the job is not cancelled when this connection drops.
   */
  readonly key?: string;
}

/** Data as the server knows it: the content hash an upload returned. */
export interface DataRef {
  readonly hash: string;
}

export type ServedData = CsrMatrix | DataRef | { readonly [name: string]: CsrMatrix | DenseMatrix | DataRef };

/** A plan made on the server: the plan's plain data, and the id under which the server keeps it. */
export interface ServedPlan extends PlanResult {
  readonly planId: string;
}

/** A run's result from the server: `runPlan`'s, and the plan it ran when the call planned too. */
export interface ServedRunResult extends RunResult {
  readonly plan?: PlanResult;
  /** Where the job sat on the machine's shared timeline (composed service seconds). */
  readonly machine?: MachineSlot;
  /** `runHere`: the same, once the server has put the run's record on the timeline (rejects where it refused the record). */
  readonly recorded?: Promise<MachineSlot>;
  /** How the outputs came: through the socket, (large ones) in a shared-memory region mapped here, or made in this process (`runHere`). */
  readonly outputsVia?: 'socket' | 'shared-memory' | 'this-process';
  /** Served runs: seconds the server held the job, from reading the request to its outputs written for the reply
   *  (`wallSeconds` of the run inside it); the call's time beyond it is the transport and this side's decoding. */
  readonly serverSeconds?: number;
}

/** A stream's result from the server: `runStream`'s, each run's outputs decoded, the plans as plain data. */
export interface ServedStreamResult extends Omit<StreamResult, 'results' | 'plans'> {
  /** Each input's run; `outputsVia` says how its outputs came (a stream's large outputs share one region). */
  readonly results: readonly (RunResult & { readonly outputsVia?: 'socket' | 'shared-memory' | 'this-process' })[];
  readonly plans: readonly PlanResult[];
  /** Where the stream sat on the machine's shared timeline: it holds the devices it uses for its pipelined makespan. */
  readonly machine: MachineSlot;
}

export interface ServerStatus extends SchedulerStatus {
  readonly server: { readonly version: string; readonly uptimeSeconds: number; readonly connections: number; readonly system: string };
  readonly tenant: string;
  /** The shared timeline: how the devices are shared, and seconds of work queued on each device and link direction now (service clock). */
  readonly machine: {
    readonly sharing: string;
    /** `job`: jobs run whole; `operator`: their operators take turns on the machine (elastic: re-planned at each turn). */
    readonly granularity: 'job' | 'operator';
    readonly elastic?: boolean;
    readonly clock: string;
    readonly backlog: Readonly<Record<string, number>>;
  };
  readonly store: {
    readonly bytes: number;
    readonly maxBytes: number;
    readonly entries: number;
    readonly evicted: number;
    readonly tenantEntries?: number;
    readonly tenantBytes?: number;
    /** Bytes this tenant's running jobs hold (what their plans compute), counted with its data in its memory quota. */
    readonly tenantJobBytes?: number;
  };
}
