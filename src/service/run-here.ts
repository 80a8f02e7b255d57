// The client's half of a lease (leases.ts): a plan the server made and keeps, run in this process
// on this process's copy of the data, when the server grants the devices. Only the grant and the
// run's record cross the socket; the outputs never leave this process.

import { AbortedError, describe, InvalidArgumentError } from '../errors.js';
import { runPlan, type RunResult } from '../executor/run.js';
import type { Plan } from '../scheduler/schedule.js';
import type { Backlog } from '../scheduler/backlog.js';
import type { RunHereOptions, ServedPlan, ServedRunResult } from './client-types.js';
import { jobFields } from './call-fields.js';
import type { LeaseGrant, LeaseRecord } from './leases.js';
import { type MachineSlot, workOf } from './machine-timeline.js';
import { isRecord, type RequestType } from './protocol.js';
import { deviceInfo, type SystemInfo } from './system-info.js';

const fn = 'DypeClient.runHere';

/** A request to the server; `quiet` ones (a kept lease's hold) are awaited without polling. */
type Call = (type: RequestType, fields: Record<string, unknown>, signal?: AbortSignal, quiet?: boolean) => Promise<unknown>;

/** A device as both sides must agree on it: its name, backend, whether simulated, and its parameters. */
const deviceKey = (d: SystemInfo['devices'][number]): string => JSON.stringify([d.name, d.backend, d.simulated, d.spec]);

/**
 * Check that `local` is the served plan's mapping on a system with the server's devices.
 * @throws {InvalidArgumentError} naming what differs.
 */
export function checkLocalPlan(plan: ServedPlan, local: Plan, server: SystemInfo): void {
  if (!isRecord(plan) || typeof (plan as { planId?: unknown }).planId !== 'string')
    throw new InvalidArgumentError(`${fn}: plan must come from this client's schedule(), got ${describe(plan)}`);
  if (!isRecord(local) || !isRecord((local as { problem?: unknown }).problem))
    throw new InvalidArgumentError(
      `${fn}: local must be a plan made in this process (schedule(workload, data, { fixedMapping: plan.mapping, system })), got ${describe(local)}`,
    );
  const mine = local.problem.system.devices.map((d) => deviceKey(deviceInfo(d)));
  const theirs = server.devices.map(deviceKey);
  const differs = theirs.findIndex((k, i) => mine[i] !== k);
  if (mine.length !== theirs.length || differs >= 0) {
    const at = differs >= 0 ? differs : Math.min(mine.length, theirs.length);
    throw new InvalidArgumentError(
      `${fn}: the local plan's system is not the server's: device ${at} is ${describe(local.problem.system.devices[at]?.name)} here and ${describe(server.devices[at]?.name)} on the server (name, backend and parameters must match; build the system from the server's system file)`,
    );
  }
  if (JSON.stringify(local.mapping) !== JSON.stringify(plan.mapping))
    throw new InvalidArgumentError(
      `${fn}: the local plan maps ${local.chosen.label}, the served plan ${plan.chosen.label}: make it with schedule(workload, data, { fixedMapping: plan.mapping })`,
    );
}

/** What the server is told of a run: each piece's time and device seconds, the devices' busy ends, the composed makespan. */
export function recordOf(result: RunResult): LeaseRecord {
  return { pieces: workOf(result), busyUntil: result.busyUntil, makespan: result.composedMakespan };
}

/**
 * A kept lease's records wait at most this long (ms) before they go, several in one message: the
 * server's process then wakes once for many runs, not once a run beside the next run's kernels
 * (a GCN loop on Kronecker 16: 1.20-1.30x in-process with a record a run, 1.06 with none). Well
 * under the server's idle limit (KEEP_IDLE_SECONDS), which a lease in use must never reach.
 */
const HOLD_RECORDS_MS = 100;
/** Records held back at most (the server takes MAX_EARLIER_RUNS in one message). */
const HOLD_RECORDS = 32;

/** A kept run's record not yet sent, and its `recorded` promise's settlement. */
interface Unsent {
  readonly record: LeaseRecord;
  readonly started: number;
  readonly resolve: (m: MachineSlot) => void;
  readonly reject: (e: unknown) => void;
}

/** A lease kept between runs of one plan (leases.ts). */
interface Kept {
  readonly lease: string;
  readonly plan: string;
  /** The server asked for it back (or it ended): no run starts under it again. */
  revoked: boolean;
  running: boolean;
  given: boolean;
  /** The last run's start (ms, performance.now()) and the devices' busy ends from it (seconds). */
  since: number;
  busyUntil: Readonly<Record<string, number>>;
  readonly unsent: Unsent[];
}

/**
 * The client's half of leases: waits for the grant, runs `local` behind the backlog it names, and
 * reports the run (or its failure); with `keepLease`, keeps the lease for the plan's next run.
 */
export class LeaseKeeper {
  #kept: Kept | undefined;
  /** Local plans already checked, with the served plan they were checked against (a check costs 70 us). */
  readonly #checked = new WeakMap<Plan, string>();

  constructor(private readonly call: Call) {}

  /** {@link checkLocalPlan}, once per local plan and served plan. */
  check(plan: ServedPlan, local: Plan, server: SystemInfo): void {
    if (isRecord(local) && this.#checked.get(local) === (plan as { planId?: unknown })?.planId) return;
    checkLocalPlan(plan, local, server);
    this.#checked.set(local, plan.planId);
  }

  async run(plan: ServedPlan, local: Plan, options: RunHereOptions): Promise<ServedRunResult> {
    const { signal, timeout: _t, arrival: _a, key, keepLease, ...run } = options;
    if (key !== undefined) throw new InvalidArgumentError(`${fn}: key is not taken here: a run in this process cannot be joined from another connection`);
    if (keepLease !== undefined && typeof keepLease !== 'boolean')
      throw new InvalidArgumentError(`${fn}: keepLease must be a boolean, got ${describe(keepLease)}`);
    let kept = this.#kept;
    // Another plan's lease, or one asked back, goes back; a run under way keeps its own. A run
    // without keepLease uses the plan's kept lease and ends it with its record.
    if (kept && (kept.plan !== plan.planId || kept.revoked)) this.#giveBack(kept);
    if (kept && (kept.given || kept.running || kept.revoked)) kept = undefined;
    let lease: string;
    let backlog: Backlog;
    if (kept) {
      lease = kept.lease;
      backlog = backlogSince(kept);
    } else {
      const grant = (await this.call('lease', { plan: plan.planId, ...jobFields(options) }, signal)) as LeaseGrant;
      ({ lease, backlog } = grant);
      if (keepLease && grant.keep) kept = this.#keep(lease, plan.planId);
    }
    if (kept) kept.running = true;
    const started = performance.now();
    let result: RunResult;
    try {
      result = await runPlan(local, { ...run, ...(signal ? { signal } : {}), backlog });
    } catch (e) {
      if (kept) this.#drop(kept);
      await this.#send(lease, kept, { failed: e instanceof Error ? e.message : String(e) }).catch(() => undefined);
      throw e;
    }
    const record = recordOf(result);
    let recorded: Promise<MachineSlot>;
    if (kept && !kept.revoked && keepLease === true) {
      kept.running = false;
      kept.since = started;
      kept.busyUntil = result.busyUntil;
      const held = kept;
      recorded = new Promise((resolve, reject) => held.unsent.push({ record, started, resolve, reject }));
      if (held.unsent.length >= HOLD_RECORDS || performance.now() - held.unsent[0]!.started >= HOLD_RECORDS_MS)
        this.#send(lease, held, { keep: true }).catch(() => undefined);
    } else {
      // The lease ends with this record (and any held back). Not awaited: the outputs are this
      // process's whatever the server does with it, and the server reads it before this
      // connection's next request (one socket, in order).
      if (kept) this.#drop(kept);
      const age = (performance.now() - started) / 1000;
      recorded = this.#send(lease, kept, { record, age }).then((r) => (r as { machine: MachineSlot }).machine);
    }
    recorded.catch(() => undefined); // handled here; a caller awaiting `recorded` still hears a refusal
    return { ...result, recorded, outputsVia: 'this-process' };
  }

  /** `lease-done` with `fields`, carrying the records `kept` held back; their promises settle with the answer. */
  #send(lease: string, kept: Kept | undefined, fields: Record<string, unknown>): Promise<unknown> {
    const unsent = kept?.unsent.splice(0) ?? [];
    const now = performance.now();
    const earlier = unsent.map((u) => ({ record: u.record, age: (now - u.started) / 1000 }));
    const reply = this.call('lease-done', { lease, ...fields, ...(earlier.length > 0 ? { earlier } : {}) });
    reply.then(
      (r) => {
        const slots = (r as { earlier?: MachineSlot[] }).earlier ?? [];
        for (const [i, u] of unsent.entries()) u.resolve(slots[i]!);
      },
      (e: unknown) => {
        for (const u of unsent) u.reject(e);
      },
    );
    return reply;
  }

  #keep(lease: string, plan: string): Kept {
    const kept: Kept = { lease, plan, revoked: false, running: false, given: false, since: performance.now(), busyUntil: {}, unsent: [] };
    this.#kept = kept;
    // Answered when the server wants the lease back (revoked) or it ended; quiet: no polling for it.
    this.call('lease-hold', { lease }, undefined, true).then(
      (r) => ((r as { revoked?: boolean }).revoked === true ? this.#giveBack(kept) : this.#lost(kept)),
      () => this.#lost(kept),
    );
    return kept;
  }

  /** Give back a kept lease, with the runs it held back (the client is closing). */
  release(): void {
    if (this.#kept) this.#giveBack(this.#kept);
  }

  /** Stop using `kept` (the last record ends it). */
  #drop(kept: Kept): void {
    kept.revoked = true;
    kept.running = false;
    if (this.#kept === kept) this.#kept = undefined;
  }

  /** The server ended `kept` itself (its time ran out): runs it had not heard of stay unrecorded. */
  #lost(kept: Kept): void {
    this.#drop(kept);
    const why = new AbortedError(`${fn}: lease ${kept.lease} ended before these runs were reported`);
    for (const u of kept.unsent.splice(0)) u.reject(why);
  }

  /** Give `kept` back now, or, while a run is under way, with its record. */
  #giveBack(kept: Kept): void {
    if (kept.running) {
      kept.revoked = true;
      return;
    }
    this.#drop(kept);
    if (kept.given) return;
    kept.given = true;
    this.#send(kept.lease, kept, { release: true }).catch(() => undefined);
  }
}

/** What is still queued on each device and link from a kept lease's last run, now. */
function backlogSince(kept: Kept): Backlog {
  const elapsed = (performance.now() - kept.since) / 1000;
  const out: Record<string, number> = {};
  for (const [name, until] of Object.entries(kept.busyUntil)) if (until > elapsed) out[name] = until - elapsed;
  return out;
}
