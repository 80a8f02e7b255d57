// The service's one dispatcher: every tenant's jobs wait here and the host runs them a fixed
// number at a time (`slots`, 1 by default, so a CPU piece is timed without another job's work on
// the same cores). The devices are shared on the machine's timeline (machine-timeline.ts): a job
// is planned against the backlog its arrival finds, so jobs co-run on different devices there.
//
// Order, as start-time fair queuing (Goyal et al., SFQ) over the tenants: the highest priority
// with work waiting goes first; among equals, the tenant with the least virtual service, where a
// tenant's virtual service grows by the work each of its jobs asked for (its `demand`: its
// operators each on their fastest device) over its weight, not by the seconds of the devices the
// shared backlog sent it to (a tenant crowded onto the CPU paid several times over: docs/serving-measured.md).
// A tenant that was idle re-enters at the virtual time of the job in service, so idling banks no
// credit. `fifo` order (the exclusive baseline) takes jobs by arrival alone. Only jobs whose
// arrival the horizon has reached may start (replayed arrivals wait for the machine to reach
// them). Quotas and partitions (quotas.ts): a tenant's next jobs are planned without the devices
// outside its partition or used past `share x window`, and wait when they need only such devices;
// a running job's pieces are charged as they end, and its run is refused a device the moment the
// quota is reached there (executor/allowance.ts), so a quota is passed by at most one piece; a
// run that must wait for its quota gives its host slot to other jobs meanwhile (host-slots.ts).

import { AbortedError, AccessError, describe, InvalidArgumentError, LimitError, SessionClosedError } from '../errors.js';
import type { ServicePolicy, TenantPolicy } from './policy.js';
import { HostSlots } from './host-slots.js';
import { excludedDevices, nextRecordExpiry, QuotaAllowance, rateRefusal, recordUse, type UseRecord } from './quotas.js';
import type { DispatchSettings, JobHandle, JobOutcome, JobSpec } from './jobs.js';
import { deviceShares, type JobState, type SchedulerStatus, tenantStatus } from './scheduler-status.js';

export type { DispatchOrder, DispatchSettings, JobContext, JobHandle, JobOutcome, JobSpec } from './jobs.js';

interface Job {
  readonly id: string;
  readonly seq: number;
  readonly kind: string;
  readonly tenant: TenantState;
  readonly submitted: number;
  readonly arrival: number;
  readonly needs: readonly string[];
  readonly controller: AbortController;
  readonly spec: JobSpec<unknown>;
  state: JobState;
  started?: number;
  /** Seconds charged to its tenant's virtual time when it started (an estimate, corrected when it ends). */
  charged?: number;
  /** Where its tenant has quotas: the allowance its run charges piece by piece. */
  allowance?: QuotaAllowance;
  timer?: NodeJS.Timeout;
  resolve(v: unknown): void;
  reject(e: unknown): void;
}

interface TenantState {
  policy: TenantPolicy;
  /** False once a reloaded policy no longer names it: its accepted jobs finish, new ones are refused. */
  active: boolean;
  vtime: number;
  /** Seconds of work a job of this tenant asks for, on average lately (the charge at a job's start). */
  meanDemand: number | undefined;
  readonly queue: Job[];
  running: number;
  completed: number;
  failed: number;
  refused: number;
  served: number;
  readonly busy: Map<string, number>;
  /** Device use inside the quota windows: (end time, device, seconds). */
  readonly recent: UseRecord[];
  /** When its recent jobs were submitted (for its rate limit). */
  readonly submitted: number[];
}

export type { SchedulerStatus, TenantStatus } from './scheduler-status.js';

export class FairScheduler {
  readonly #tenants = new Map<string, TenantState>();
  readonly #jobs = new Map<string, Job>();
  readonly #host: HostSlots;
  #seq = 0;
  #vclock = 0;
  /** Seconds of work a job asks for, on average lately over every tenant (the charge before a tenant has history). */
  #meanDemand = 1e-3;
  #draining = false;
  #drained: (() => void) | undefined;
  #wake: NodeJS.Timeout | undefined;

  constructor(
    policy: ServicePolicy,
    readonly devices: readonly string[],
    readonly slots = 1,
    private readonly now: () => number = () => performance.now() / 1000,
    private readonly dispatch: DispatchSettings = {},
  ) {
    this.#host = new HostSlots(slots, () => this.#pump());
    this.setPolicy(policy);
  }

  /** Put a (re)loaded policy in force: tenants kept keep their queues and history; removed ones finish what they have. */
  setPolicy(policy: ServicePolicy): void {
    for (const s of this.#tenants.values()) s.active = false;
    for (const t of policy.tenants) {
      const s = this.#tenants.get(t.name);
      if (s) {
        s.policy = t;
        s.active = true;
      } else
        this.#tenants.set(t.name, {
          policy: t,
          active: true,
          vtime: this.#virtualNow(),
          meanDemand: undefined,
          queue: [],
          running: 0,
          completed: 0,
          failed: 0,
          refused: 0,
          served: 0,
          busy: new Map(),
          recent: [],
          submitted: [],
        });
    }
    this.#pump();
  }

  /**
   * Queue a job for its tenant.
   * @throws {SessionClosedError} while draining; {LimitError} when the tenant has `maxQueued` jobs
   *   queued or running; {AccessError} for a tenant the policy does not (or no longer) name.
   */
  submit<T>(fn: string, spec: JobSpec<T>): JobHandle<T> {
    const tenant = this.#tenants.get(spec.tenant);
    if (!tenant?.active) throw new AccessError(`${fn}: tenant ${JSON.stringify(spec.tenant)} is not in the server's policy`);
    if (this.#draining) throw new SessionClosedError(`${fn}: the server is shutting down and accepts no new jobs`);
    const held = tenant.queue.length + tenant.running;
    if (held >= tenant.policy.maxQueued) {
      tenant.refused++;
      throw new LimitError(
        `${fn}: tenant ${JSON.stringify(tenant.policy.name)} has ${held} jobs queued or running, its limit (maxQueued ${tenant.policy.maxQueued}); retry when one finishes`,
      );
    }
    const submitted = this.now();
    const overRate = rateRefusal(tenant.policy, tenant.submitted, submitted);
    if (overRate) {
      tenant.refused++;
      throw new LimitError(`${fn}: ${overRate}`);
    }
    if (spec.timeout !== undefined && !(typeof spec.timeout === 'number' && spec.timeout > 0 && spec.timeout <= 86400 * 365)) {
      throw new InvalidArgumentError(`${fn}: timeout must be a number of seconds in (0, 31536000], got ${describe(spec.timeout)}`);
    }
    tenant.submitted.push(submitted);
    // Re-entering after idling: start from the virtual time of the work in service.
    if (held === 0) tenant.vtime = Math.max(tenant.vtime, this.#virtualNow());
    const seq = ++this.#seq;
    let resolve!: (v: unknown) => void;
    let reject!: (e: unknown) => void;
    const result = new Promise<T>((res, rej) => {
      resolve = res as (v: unknown) => void;
      reject = rej;
    });
    const job: Job = {
      id: `j${seq}`,
      seq,
      kind: spec.kind,
      tenant,
      submitted,
      arrival: spec.arrival ?? submitted,
      needs: spec.needs ?? [],
      controller: new AbortController(),
      spec: spec as JobSpec<unknown>,
      state: 'queued',
      resolve,
      reject,
    };
    if (spec.timeout !== undefined) {
      job.timer = setTimeout(
        () => this.#stop(job, new AbortedError(`${fn}: job ${job.id} reached its timeout of ${spec.timeout} s while ${job.state}`)),
        spec.timeout * 1000,
      );
      job.timer.unref?.();
    }
    // A tenant's jobs run in arrival order (replayed arrivals may come out of order).
    const at = tenant.queue.findIndex((j) => j.arrival > job.arrival);
    tenant.queue.splice(at < 0 ? tenant.queue.length : at, 0, job);
    this.#jobs.set(job.id, job);
    this.#pump();
    if (job.state === 'queued') this.dispatch.queued?.();
    return { id: job.id, result };
  }

  /**
   * Cancel `jobId` for `tenant`: a queued job is dropped, a running one stopped at its next piece
   * boundary; either rejects with an {@link AbortedError}.
   * @throws {AccessError} for another tenant's job; {InvalidArgumentError} for an unknown (or finished) one.
   */
  cancel(fn: string, tenant: string, jobId: string, why = 'cancelled by its client'): void {
    const job = this.#jobs.get(jobId);
    if (!job) throw new InvalidArgumentError(`${fn}: no job ${describe(jobId)} is queued or running`);
    if (job.tenant.policy.name !== tenant) throw new AccessError(`${fn}: job ${jobId} belongs to another tenant`);
    this.#stop(job, new AbortedError(`${fn}: job ${jobId} was ${why}`));
  }

  /** Start what may start now: the operator interleaver's clock moved, so replayed arrivals may have been reached. */
  poke(): void {
    this.#pump();
  }

  /** Stop admitting; resolves when every accepted job has finished. */
  drain(): Promise<void> {
    this.#draining = true;
    if (this.#jobs.size === 0) return Promise.resolve();
    return new Promise((res) => {
      this.#drained = res;
    });
  }

  /** Whether no job is queued or running. */
  get idle(): boolean {
    return this.#jobs.size === 0;
  }

  get draining(): boolean {
    return this.#draining;
  }

  /** The scheduler's state; `tenant`'s own jobs are listed. */
  status(tenant: string): SchedulerStatus {
    const now = this.now();
    const all = [...this.#tenants.values()];
    const tenants = all.filter((t) => t.active || t.queue.length + t.running > 0).map((t) => tenantStatus(t, this.devices, now));
    const devices = deviceShares(this.devices, all);
    const jobs = [...this.#jobs.values()]
      .filter((j) => j.tenant.policy.name === tenant)
      .map((j) => ({ id: j.id, kind: j.kind, state: j.state, seconds: now - (j.started ?? j.submitted) }));
    let queued = 0;
    for (const t of this.#tenants.values()) queued += t.queue.length;
    return { slots: this.slots, draining: this.#draining, queued, running: this.#host.running, tenants, devices, jobs };
  }

  #stop(job: Job, reason: AbortedError): void {
    if (!this.#jobs.has(job.id)) return;
    if (job.state === 'queued') {
      const q = job.tenant.queue;
      q.splice(q.indexOf(job), 1);
      this.#finish(job, false);
      job.reject(reason);
    } else if (!job.controller.signal.aborted) {
      job.controller.abort(reason);
    }
  }

  #finish(job: Job, ran: boolean): void {
    if (job.timer) clearTimeout(job.timer);
    this.#jobs.delete(job.id);
    if (ran) {
      this.#host.give();
      job.tenant.running--;
    }
    if (this.#jobs.size === 0 && this.#drained) this.#drained();
  }

  /** Start jobs while slots are free, in priority then fair order (or arrival order), among those the horizon has reached. */
  #pump(): void {
    this.#host.resumeWaiting();
    for (;;) {
      const full = !this.#host.free;
      if (full && !this.dispatch.fairWindow) return;
      const now = this.now();
      const heads: { t: TenantState; exclude: string[] }[] = [];
      let blocked = false;
      const shareOfWindow = full ? this.#windowShares() : undefined;
      for (const t of this.#tenants.values()) {
        const head = t.queue[0];
        if (!head) continue;
        if (shareOfWindow && t.running >= shareOfWindow(t)) continue;
        const exclude = excludedDevices(t.policy, t.recent, this.devices, now);
        if (exclude.length >= this.devices.length || head.needs.some((d) => exclude.includes(d))) blocked = true;
        else heads.push({ t, exclude });
      }
      // Nothing has arrived by the horizon: the earliest arrival goes next (to a free slot only).
      let horizon = this.dispatch.horizon?.() ?? now;
      if (!full) horizon = Math.max(horizon, Math.min(...heads.map((h) => h.t.queue[0]!.arrival)));
      let best: { t: TenantState; exclude: string[] } | undefined;
      for (const h of heads) {
        const head = h.t.queue[0]!;
        if (head.arrival > horizon) continue;
        if (!best || this.#before(head, best.t.queue[0]!)) best = h;
      }
      if (!best) {
        if (blocked) this.#wakeLater(now);
        return;
      }
      this.#start(best.t.queue.shift()!, best.exclude);
    }
  }

  /** Each tenant's weighted share of the window among the tenants with work, at least one job. */
  #windowShares(): (t: TenantState) => number {
    let total = 0;
    for (const t of this.#tenants.values()) if (t.queue.length + t.running > 0) total += t.policy.weight;
    return (t) => Math.max(1, Math.floor((this.slots * t.policy.weight) / total));
  }

  /**
   * The virtual time a tenant re-enters at. With one slot, the virtual time of the job in service
   * (SFQ's): every charge is settled before the next start. With several, a charge at start is an
   * estimate, corrected when the job ends, so the last start's virtual time can run ahead of the
   * others': the least of the tenants with work (like CFS's min_vruntime).
   */
  #virtualNow(): number {
    if (this.slots === 1) return this.#vclock;
    let v = Infinity;
    for (const t of this.#tenants.values()) if (t.queue.length + t.running > 0) v = Math.min(v, t.vtime);
    return Number.isFinite(v) ? v : this.#vclock;
  }

  /** Whether job a goes before job b (both heads of their tenants' queues). */
  #before(a: Job, b: Job): boolean {
    if (this.dispatch.order === 'fifo') return a.arrival < b.arrival || (a.arrival === b.arrival && a.seq < b.seq);
    const pa = a.tenant.policy.priority;
    const pb = b.tenant.policy.priority;
    if (pa !== pb) return pa > pb;
    return a.tenant.vtime < b.tenant.vtime || (a.tenant.vtime === b.tenant.vtime && a.seq < b.seq);
  }

  /** Quota-blocked work waits: look again when the oldest record in any window expires. */
  #wakeLater(now: number): void {
    if (this.#wake) return;
    const soonest = nextRecordExpiry(
      [...this.#tenants.values()].filter((t) => t.queue.length > 0),
      now,
    );
    const delay = Number.isFinite(soonest) ? Math.max(10, soonest * 1000 + 1) : 1000;
    this.#wake = setTimeout(() => {
      this.#wake = undefined;
      this.#pump();
    }, delay);
    // Not unref'd: a server draining with only quota-blocked jobs left must stay up to run them.
  }

  #start(job: Job, exclude: readonly string[]): void {
    const t = job.tenant;
    job.state = 'running';
    job.started = this.now();
    t.running++;
    this.#host.take();
    this.#vclock = Math.max(this.#vclock, t.vtime);
    // Charged at its start (start-time fair queuing): with several jobs open, the next start sees it.
    job.charged = t.meanDemand ?? this.#meanDemand;
    t.vtime += job.charged / t.policy.weight;
    const signal = job.controller.signal;
    // A wait with the host slot given up meanwhile, shown in status as `why`.
    const aside = (why: JobState) => (wait: () => Promise<void>, s: AbortSignal | undefined) =>
      this.#host.around(wait, s, (waiting) => void (job.state = waiting ? why : 'running'));
    // Quotas hold piece by piece: the run is refused a device once the tenant reaches its quota there.
    if (Object.keys(t.policy.quotas).length > 0) job.allowance = new QuotaAllowance(() => t.policy, t.recent, this.now, aside('waiting for quota'));
    const waitAside = (wait: () => Promise<void>): Promise<void> => aside('waiting for memory')(wait, signal);
    let work: Promise<JobOutcome<unknown>>;
    try {
      work = job.spec.run({ signal, exclude, arrival: job.arrival, waitAside, ...(job.allowance ? { allowance: job.allowance } : {}) });
    } catch (e) {
      work = Promise.reject(e);
    }
    work.then(
      (outcome) => {
        this.#account(job, outcome.usage, outcome.demand);
        t.completed++;
        this.#finish(job, true);
        if (signal.aborted) job.reject(signal.reason);
        else job.resolve(outcome.value);
        this.#pump();
      },
      (e: unknown) => {
        this.#account(job, new Map());
        t.failed++;
        this.#finish(job, true);
        job.reject(signal.aborted ? signal.reason : e);
        this.#pump();
      },
    );
  }

  /** Charge a finished job's work to its tenant's virtual time, and its device seconds to its records. */
  #account(job: Job, usage: ReadonlyMap<string, number>, demand?: number): void {
    const t = job.tenant;
    const now = this.now();
    t.served += now - job.started!;
    let held = 0;
    for (const s of usage.values()) held += s;
    const work = demand ?? held;
    // The charge at its start was an estimate: the virtual time gets what the job really asked for.
    t.vtime += (work - (job.charged ?? 0)) / t.policy.weight;
    t.meanDemand = t.meanDemand === undefined ? work : 0.75 * t.meanDemand + 0.25 * work;
    this.#meanDemand = 0.75 * this.#meanDemand + 0.25 * work;
    for (const [d, s] of usage) t.busy.set(d, (t.busy.get(d) ?? 0) + s);
    recordUse(t.policy, t.recent, usage, job.allowance?.charged, now);
  }
}
