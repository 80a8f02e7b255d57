// The options of `startServer` (`dype serve`'s flags set the same ones).

import type { CostModel } from '../cost/model.js';
import type { System } from '../devices/system.js';
import type { Granularity, Sharing } from './machine-timeline.js';
import type { ServiceClock } from './requests.js';

export interface ServeOptions {
  /** Unix socket path. @default `$XDG_RUNTIME_DIR/dype/dype.sock`, else `dype.sock` in the cache folder */
  readonly socket?: string;
  /** Also listen on loopback TCP, `HOST:PORT` (port 0 picks one). */
  readonly tcp?: string;
  /** A policy file (JSON). @default one tenant, `default`, with a token generated now */
  readonly policy?: string;
  /** @default 256 MiB */
  readonly maxFrameBytes?: number;
  /** Bytes of uploaded data kept. @default 4 GiB */
  readonly storeBytes?: number;
  /**
   * Jobs open at once. With `granularity: 'job'`, jobs the host runs at once (above 1, a job is
   * planned without the backlog of the others in flight); with `'operator'`, jobs whose operators
   * take turns on the machine (the host still runs one operator at a time). @default 1; 64 with 'operator'
   */
  readonly slots?: number;
  /**
   * `job`: a job is planned against the backlog its arrival finds, runs whole, and is put on the
   * machine's timeline whole. `operator`: the open jobs' operators take turns on the machine's
   * composed clock, earliest ready first, each placed as it runs, and each job reserves what its
   * operators not started are predicted to take; see `elastic`. Needs `sharing: 'shared'`. @default 'job'
   */
  readonly granularity?: Granularity;
  /**
   * With `granularity: 'operator'`: each job re-plans its operators not started at every turn,
   * against the machine's queues and the work reserved by the jobs before it (higher priority, or
   * equal and started earlier), so running plans grow onto freed devices and shrink off those a
   * higher-priority job reserved. False: each job runs the plan it started with. @default true
   */
  readonly elastic?: boolean;
  /**
   * `shared`: jobs co-run on the devices their plans leave free, each planned against the
   * machine's backlog; `exclusive`: each job holds the whole machine, first come first served
   * (the baseline the load bench compares with). @default 'shared'
   */
  readonly sharing?: Sharing;
  /**
   * `wall`: a job arrives when its request is received; `declared`: at the `arrival` (service
   * seconds) its request gives, for replaying a trace of arrivals in benchmarks. @default 'wall'
   */
  readonly clock?: ServiceClock;
  /**
   * Plan each job against the machine's backlog (true), or as if the machine were idle (false: the
   * job still queues behind the backlog on the devices it picked; the load bench's ablation).
   * @default true
   */
  readonly backlogPlanning?: boolean;
  /**
   * Let clients on the Unix socket upload through shared memory (Linux): the arrays are written
   * once into a region the server maps, never copied through the socket. @default true where the platform has it
   */
  readonly sharedMemory?: boolean;
  /**
   * After a reply, while no job is queued or running, poll for the next request for up to this
   * many microseconds instead of sleeping (hot-poll.ts: a thread that slept runs the next request
   * 3-5x slower here; polling stops by itself while requests come later than this). 0: off. @default 1000
   */
  readonly pollMicroseconds?: number;
  readonly system?: System;
  readonly model?: CostModel;
  /** Where log lines go. @default stderr */
  readonly log?: (line: string) => void;
}
