// Runs executed in the client's own process on devices the server grants (`lease`, then
// `lease-done`). A served run pays for what crosses the boundary: the request, the outputs back
// (a 2 MiB GCN output: about 1 ms of region writing, mapping and cold wake-ups on the 2-vCPU VMs,
// 10-25% of an 11 ms run), and both processes waking cold after each step. Where the client
// already holds the data and the kernels (the library in its own process), the server need only
// decide when the run may use the machine: the job waits its turn in the fair order as any run
// does (priorities, weights, quotas at the grant, admission limits), the grant carries the backlog
// the run is composed behind, the client runs the kept plan's mapping, and `lease-done` puts the
// run's pieces on the shared timeline and charges its tenant, as a run in the server would be.
//
// The server trusts the record's figures as it trusts a tenant's process anyway (a Unix-socket
// client runs as the server's user); it checks their form and bounds. A lease ends with its
// record, with the client's failure, when its connection leaves, or after its time (the job's
// timeout, else LEASE_SECONDS): devices are never held by a client that went away.

import { AbortedError, describe, InvalidArgumentError, UnsupportedError } from '../errors.js';
import type { Backlog } from '../scheduler/backlog.js';
import type { JobHandle, JobOutcome } from './jobs.js';
import { deviceSeconds, type MachineSlot, type MachineWork } from './machine-timeline.js';
import { checkFields, isRecord } from './protocol.js';
import { jobTimes } from './request-fields.js';
import { type Answer, keptPlanJob, type ServiceState } from './requests.js';

/** Seconds a granted lease may run before the server ends it, where the job has no timeout of its own. */
export const LEASE_SECONDS = 600;
/** Pieces one record may report (a run's pieces: operators times parts, re-plans included). */
const MAX_RECORD_PIECES = 100_000;
/** The largest seconds figure a record may give. */
const MAX_RECORD_SECONDS = 1e6;

/** What `lease` answers once the job's turn comes: the lease, and what the run is composed behind. */
export interface LeaseGrant {
  readonly lease: string;
  /** Seconds of work queued ahead on each device and link direction: `runPlan`'s `backlog`. */
  readonly backlog: Backlog;
  readonly arrival: number;
}

/** What the client reports of its run: `RunResult`'s pieces, busy ends and composed makespan. */
export interface LeaseRecord {
  readonly pieces: readonly MachineWork[];
  readonly busyUntil: Readonly<Record<string, number>>;
  readonly makespan: number;
}

interface OpenLease {
  readonly tenant: string;
  /** The run's record, or why the lease ended without one. */
  end(record: LeaseRecord | Error): void;
  /** The job's value once the record is on the timeline. */
  slot(): Promise<unknown>;
}

/** The leases granted and not yet ended. */
export class Leases {
  readonly #open = new Map<string, OpenLease>();
  #next = 1;

  get size(): number {
    return this.#open.size;
  }

  /** `lease`: a job that waits its turn, grants the kept plan's devices, and ends with the client's record. */
  request(state: ServiceState, tenant: string, fields: Readonly<Record<string, unknown>>): Answer {
    const fn = 'serve.lease';
    checkFields(fn, fields, ['plan'], ['timeout', 'arrival']);
    if (state.interleaver) {
      throw new UnsupportedError(
        `${fn}: this server interleaves jobs operator by operator (--granularity operator), which needs the kernels in its own process; run the plan on the server (runPlan) or serve with --granularity job`,
      );
    }
    const kept = state.plans.get(fn, tenant, fields['plan']);
    const { plan } = kept;
    const times = jobTimes(state, fn, fields);
    const seconds = times.timeout ?? LEASE_SECONDS;
    let granted!: (g: LeaseGrant) => void;
    let refused!: (e: unknown) => void;
    const grant = new Promise<LeaseGrant>((res, rej) => {
      granted = res;
      refused = rej;
    });
    const handle: JobHandle<unknown> = keptPlanJob(state, fn, kept, {
      tenant,
      kind: 'lease',
      ...times,
      run: async ({ signal, arrival: at }): Promise<JobOutcome<unknown>> => {
        const id = `lease-${this.#next++}`;
        const backlog = state.machine.backlogAt(at);
        const record = new Promise<LeaseRecord>((resolve, reject) => {
          const stop = (e: Error): void => {
            clearTimeout(timer);
            this.#open.delete(id);
            reject(e);
          };
          const timer = setTimeout(() => stop(new AbortedError(`${fn}: lease ${id} ended: no record within ${seconds} s`)), seconds * 1000);
          timer.unref?.();
          signal.addEventListener('abort', () => stop(new AbortedError(`${fn}: lease ${id} ended: ${String(signal.reason ?? 'cancelled')}`)), { once: true });
          this.#open.set(id, {
            tenant,
            end: (r) => {
              if (r instanceof Error) return stop(r);
              clearTimeout(timer);
              this.#open.delete(id);
              resolve(r);
            },
            slot: () => handle.result, // (the job may start inside submit, before `handle` is set)
          });
        });
        granted({ lease: id, backlog, arrival: at });
        const r = await record;
        const work = r.pieces.map((w) => ({ ...w, start: at + w.start, finish: at + w.finish }));
        const machine: MachineSlot = { ...state.machine.commit(at, backlog, r.busyUntil, r.makespan), work };
        return { value: { machine }, usage: deviceSeconds(r.pieces), demand: plan.problem.table.demandSeconds() };
      },
    });
    // Ended before its grant (cancelled, timed out, refused a device): the request hears why.
    handle.result.catch(refused);
    return { state: 'job', jobId: handle.id, value: grant };
  }

  /** `lease-done`: the client's record of the run (or `failed`, a message); answers with where the run sat on the shared timeline. */
  done(state: ServiceState, tenant: string, fields: Readonly<Record<string, unknown>>): Answer {
    const fn = 'serve.lease-done';
    checkFields(fn, fields, ['lease'], ['record', 'failed']);
    const open = this.#owned(fn, tenant, fields['lease']);
    if (fields['failed'] !== undefined) {
      const why = typeof fields['failed'] === 'string' ? fields['failed'].slice(0, 500) : 'the run failed';
      open.end(new AbortedError(`${fn}: the client's run failed: ${why}`));
      return { state: 'now', value: { ended: fields['lease'] } };
    }
    open.end(leaseRecord(fn, fields['record'], state.machine.names));
    return { state: 'now', value: open.slot() };
  }

  /** End the leases a connection that left still held (their devices go back to the machine). */
  abandon(tenant: string, leases: Iterable<string>): void {
    for (const id of leases) {
      const open = this.#open.get(id);
      if (open?.tenant === tenant) open.end(new AbortedError(`serve.lease: lease ${id} ended: its client disconnected`));
    }
  }

  #owned(fn: string, tenant: string, id: unknown): OpenLease {
    const open = typeof id === 'string' ? this.#open.get(id) : undefined;
    if (!open || open.tenant !== tenant)
      throw new InvalidArgumentError(`${fn}: field "lease": no open lease ${describe(id)} of this tenant (ended, or never granted)`);
    return open;
  }
}

const seconds = (fn: string, field: string, v: unknown): number => {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > MAX_RECORD_SECONDS)
    throw new InvalidArgumentError(`${fn}: field "${field}" must be seconds in [0, ${MAX_RECORD_SECONDS}], got ${describe(v)}`);
  return v;
};

/** Seconds by device or link name, every name one of `names`. */
function byName(fn: string, field: string, v: unknown, names: readonly string[]): Record<string, number> {
  if (!isRecord(v)) throw new InvalidArgumentError(`${fn}: field "${field}" must be an object of seconds by device, got ${describe(v)}`);
  const out: Record<string, number> = {};
  for (const [k, x] of Object.entries(v)) {
    if (!names.includes(k))
      throw new InvalidArgumentError(`${fn}: field "${field}": ${describe(k)} is not a device or link of this server (${names.join(', ')})`);
    out[k] = seconds(fn, `${field}.${k}`, x);
  }
  return out;
}

/** A record checked field by field before it touches the timeline. */
export function leaseRecord(fn: string, v: unknown, names: readonly string[]): LeaseRecord {
  if (!isRecord(v)) throw new InvalidArgumentError(`${fn}: field "record" must be an object (pieces, busyUntil, makespan), got ${describe(v)}`);
  checkFields(fn, v, ['pieces', 'busyUntil', 'makespan'], []);
  const raw = v['pieces'];
  if (!Array.isArray(raw) || raw.length > MAX_RECORD_PIECES)
    throw new InvalidArgumentError(`${fn}: field "record.pieces" must be an array of at most ${MAX_RECORD_PIECES} pieces, got ${describe(raw)}`);
  const pieces = raw.map((p: unknown, i): MachineWork => {
    const at = `record.pieces.${i}`;
    if (!isRecord(p)) throw new InvalidArgumentError(`${fn}: field "${at}" must be an object (start, finish, seconds, devices), got ${describe(p)}`);
    checkFields(fn, p, ['start', 'finish', 'seconds', 'devices'], []);
    const start = seconds(fn, `${at}.start`, p['start']);
    const finish = seconds(fn, `${at}.finish`, p['finish']);
    if (finish < start) throw new InvalidArgumentError(`${fn}: field "${at}": finish ${finish} s is before start ${start} s`);
    return { start, finish, seconds: seconds(fn, `${at}.seconds`, p['seconds']), devices: byName(fn, `${at}.devices`, p['devices'], names) };
  });
  return { pieces, busyUntil: byName(fn, 'record.busyUntil', v['busyUntil'], names), makespan: seconds(fn, 'record.makespan', v['makespan']) };
}
