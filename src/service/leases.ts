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
//
// A lease may be kept between runs (`lease-done` with `keep`): the client's next run of the plan
// starts without asking again, so a run in a loop pays neither the grant's round trip (two
// processes waking: 1.5-1.9 ms for 0.2 ms of work on the 2-vCPU VM) nor a message of its own (the
// client sends several runs' records together, `earlier`, each placed at the time it started). Only the client may end it, so a run it starts is never
// unauthorised: the server asks for it back (the answer to `lease-hold`) when another job waits,
// when the lease idles KEEP_IDLE_SECONDS, or when draining, and another job waits for the client's
// answer: the run in progress, if any, then its record or `release`.

import { AbortedError, describe, InvalidArgumentError, UnsupportedError } from '../errors.js';
import type { Backlog } from '../scheduler/backlog.js';
import type { JobHandle, JobOutcome } from './jobs.js';
import { deviceSeconds, type MachineSlot, type MachineWork } from './machine-timeline.js';
import { checkFields, isRecord } from './protocol.js';
import { jobTimes } from './request-fields.js';
import { type Answer, keptPlanJob, type ServiceState } from './requests.js';

/** Seconds a granted lease may run before the server ends it, where the job has no timeout of its own. */
export const LEASE_SECONDS = 600;
/** Seconds a kept lease may sit between runs before the server asks for it back. */
export const KEEP_IDLE_SECONDS = 0.25;
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
  /** Whether the lease may be kept between runs (not where the tenant has quotas, or arrivals are declared). */
  readonly keep: boolean;
}

/** What the client reports of its run: `RunResult`'s pieces, busy ends and composed makespan. */
export interface LeaseRecord {
  readonly pieces: readonly MachineWork[];
  readonly busyUntil: Readonly<Record<string, number>>;
  readonly makespan: number;
}

interface OpenLease {
  readonly tenant: string;
  /** Whether the lease may be kept between runs. */
  readonly keep: boolean;
  /** Put a run on the timeline: the first at the grant, a later one `age` seconds before now. */
  commit(r: LeaseRecord, age: number): MachineSlot;
  /** The lease stays open for the next run (its timers start again). */
  kept(): void;
  /** End the lease: the client's release or last record (no error), or why it ended. */
  end(why?: Error): void;
  /** Answered when the server wants the lease back, or when it ends. */
  hold(): Promise<{ revoked: boolean }>;
  /** Ask for the lease back. */
  revoke(): void;
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
    const keep = state.clock === 'wall' && Object.keys(state.tenantPolicy(tenant)?.quotas ?? {}).length === 0;
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
      run: ({ signal, arrival: at }): Promise<JobOutcome<unknown>> => {
        const id = `lease-${this.#next++}`;
        const backlog = state.machine.backlogAt(at);
        const usage = new Map<string, number>();
        let runs = 0;
        let last: MachineSlot | undefined;
        let answerHold: ((v: { revoked: boolean }) => void) | undefined;
        let revoked = false;
        const outcome = new Promise<JobOutcome<unknown>>((resolve, reject) => {
          const close = (why?: Error): void => {
            clearTimeout(timer);
            clearTimeout(idle);
            this.#open.delete(id);
            answerHold?.({ revoked });
            // Runs already on the timeline are charged whatever ended the lease.
            if (runs === 0) reject(why ?? new AbortedError(`${fn}: lease ${id} released before any run`));
            else resolve({ value: { machine: last }, usage, demand: plan.problem.table.demandSeconds() * runs });
          };
          const expire = (): void => close(new AbortedError(`${fn}: lease ${id} ended: no record within ${seconds} s`));
          let timer = setTimeout(expire, seconds * 1000);
          let idle: NodeJS.Timeout | undefined;
          timer.unref?.();
          signal.addEventListener('abort', () => close(new AbortedError(`${fn}: lease ${id} ended: ${String(signal.reason ?? 'cancelled')}`)), { once: true });
          const open: OpenLease = {
            tenant,
            keep,
            commit: (r, age) => {
              // The first run arrived at the grant; a kept lease's later runs when they started.
              const arrival = runs === 0 ? at : Math.max(at, performance.now() / 1000 - age);
              const work = r.pieces.map((w) => ({ ...w, start: arrival + w.start, finish: arrival + w.finish }));
              const found = runs === 0 ? backlog : state.machine.backlogAt(arrival);
              last = { ...state.machine.commit(arrival, found, r.busyUntil, r.makespan), work };
              for (const [d, sec] of deviceSeconds(r.pieces)) usage.set(d, (usage.get(d) ?? 0) + sec);
              runs++;
              return last;
            },
            kept: () => {
              clearTimeout(timer);
              timer = setTimeout(expire, seconds * 1000);
              timer.unref?.();
              clearTimeout(idle);
              idle = setTimeout(() => open.revoke(), KEEP_IDLE_SECONDS * 1000);
              idle.unref?.();
            },
            end: close,
            hold: () =>
              new Promise((res) => {
                answerHold?.({ revoked });
                if (revoked) res({ revoked });
                else answerHold = res;
              }),
            revoke: () => {
              revoked = true;
              answerHold?.({ revoked });
              answerHold = undefined;
            },
          };
          this.#open.set(id, open);
          // A lease that may be kept idles from its grant: its first run's record may be held back.
          if (keep) open.kept();
        });
        granted({ lease: id, backlog, arrival: at, keep });
        return outcome;
      },
    });
    // Ended before its grant (cancelled, timed out, refused a device): the request hears why.
    handle.result.catch(refused);
    return { state: 'job', jobId: handle.id, value: grant };
  }

  /**
   * `lease-done`: the client's record of a run (answered with where it sat on the shared timeline,
   * and whether the lease is kept: `keep`; `age`, the seconds since the run started), `failed` (a
   * message), or `release` (a kept lease given back); `earlier` carries a kept lease's runs not yet
   * reported (each `{ record, age }`, oldest first), put on the timeline before the rest.
   */
  done(state: ServiceState, tenant: string, fields: Readonly<Record<string, unknown>>): Answer {
    const fn = 'serve.lease-done';
    checkFields(fn, fields, ['lease'], ['record', 'failed', 'release', 'keep', 'age', 'earlier']);
    const open = this.#owned(fn, tenant, fields['lease']);
    const names = state.machine.names;
    const earlierRuns = earlierRecords(fn, fields['earlier'], names);
    const keepIt = fields['keep'] === true;
    const record = fields['record'] === undefined ? undefined : leaseRecord(fn, fields['record'], names);
    const age = record && fields['age'] !== undefined ? seconds(fn, 'age', fields['age']) : 0;
    if (record === undefined && fields['failed'] === undefined && fields['release'] !== true && !keepIt)
      throw new InvalidArgumentError(`${fn}: give a "record", "failed", "release": true, or "earlier" runs with "keep": true`);
    // Checked whole before any of it touches the timeline.
    const earlier = earlierRuns.map((e) => open.commit(e.record, e.age));
    const reported = earlier.length > 0 ? { earlier } : {};
    if (fields['failed'] !== undefined) {
      const why = typeof fields['failed'] === 'string' ? fields['failed'].slice(0, 500) : 'the run failed';
      open.end(new AbortedError(`${fn}: the client's run failed: ${why}`));
      return { state: 'now', value: { ended: fields['lease'], ...reported } };
    }
    if (fields['release'] === true) {
      open.end();
      return { state: 'now', value: { ended: fields['lease'], ...reported } };
    }
    const machine = record ? open.commit(record, age) : undefined;
    if (keepIt && open.keep) {
      open.kept();
      return { state: 'now', value: { machine, kept: true, ...reported } };
    }
    open.end();
    return { state: 'now', value: { machine, kept: false, ...reported } };
  }

  /** `lease-hold`: answered (`{ revoked }`) when the server wants a kept lease back, or when it ends. */
  hold(tenant: string, fields: Readonly<Record<string, unknown>>): Answer {
    const fn = 'serve.lease-hold';
    checkFields(fn, fields, ['lease'], []);
    return { state: 'now', value: this.#owned(fn, tenant, fields['lease']).hold() };
  }

  /** Ask for every open lease back: a job is waiting, or the server drains. */
  revokeAll(): void {
    for (const open of this.#open.values()) open.revoke();
  }

  /** Whether `id` is open. */
  isOpen(id: unknown): boolean {
    return typeof id === 'string' && this.#open.has(id);
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

/** Kept runs one `lease-done` may report at once. */
export const MAX_EARLIER_RUNS = 64;

/** A kept lease's runs reported late (`earlier`), each checked as a record. */
function earlierRecords(fn: string, v: unknown, names: readonly string[]): { record: LeaseRecord; age: number }[] {
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.length > MAX_EARLIER_RUNS)
    throw new InvalidArgumentError(`${fn}: field "earlier" must be an array of at most ${MAX_EARLIER_RUNS} runs, got ${describe(v)}`);
  return v.map((e: unknown, i) => {
    if (!isRecord(e)) throw new InvalidArgumentError(`${fn}: field "earlier.${i}" must be an object (record, age), got ${describe(e)}`);
    checkFields(fn, e, ['record', 'age'], []);
    return { record: leaseRecord(fn, e['record'], names), age: seconds(fn, `earlier.${i}.age`, e['age']) };
  });
}
