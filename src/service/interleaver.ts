// The served machine, operator by operator: several jobs are open at once, and their operators take
// turns on the machine's one composed timeline. A turn is given only when every open job has said
// what it runs next, among the operators ready by the time the machine can next start one: the
// higher priority first, then the tenant with the least work per weight (weighted fair shares, work
// being what each operator asks for on its fastest device: `OperatorPlacement.demand`), a tenant's
// older job before its newer one, then the earliest ready. No operator is
// placed before the machine could start it: a conservative discrete-event loop over all jobs'
// operators. The host runs one operator at a time, so a CPU piece is timed without another job's
// work on the same cores.
//
// Each job reserves the device seconds its operators not yet started are predicted to take. A job
// plans, and an elastic job re-plans at each of its operator boundaries, against the machine's
// queues plus the reservations of the jobs that go before it (higher priority, or equal priority
// and an earlier virtual start in the fair order): a job grows onto devices others have left or
// finished with, and shrinks off those a higher-priority or under-served tenant has reserved
// (preemption at operator boundaries).

import { InvalidArgumentError } from '../errors.js';
import type { GateTurn, OperatorGate, OperatorPlacement } from '../executor/gate.js';
import type { Backlog } from '../scheduler/backlog.js';
import type { MachineSlot, MachineTimeline, MachineWork } from './machine-timeline.js';

interface Request {
  readonly lane: Lane;
  readonly readyAt: number;
  readonly grant: (turn: GateTurn) => void;
}

/** One job's part in the interleaving: the gate its run goes through. */
export class Lane implements OperatorGate {
  /** Requests of this job waiting for a turn. */
  waiting = 0;
  closed = false;
  reserved: Readonly<Record<string, number>> = {};
  /** Work its operators not yet placed ask for (their `demand`, summed): its place in the fair order. */
  demandLeft = 0;
  #start = Infinity;
  #finish = 0;
  readonly #work: MachineWork[] = [];

  constructor(
    private readonly owner: Interleaver,
    readonly seq: number,
    readonly job: OpenJob,
    readonly origin: number,
  ) {}

  get priority(): number {
    return this.job.priority;
  }

  /** Whether the job has made its plan (and so reserved what it needs). */
  planned = false;

  /**
   * The job made its plan: it holds each device `seconds` (predicted) until its operators run, and
   * asks for `demand` seconds of work (`CostTable.demandSeconds`; by default the seconds held).
   */
  reserve(seconds: Readonly<Record<string, number>>, demand?: number): void {
    this.reserved = seconds;
    let held = 0;
    for (const v of Object.values(seconds)) held += v;
    this.demandLeft = demand ?? held;
    this.planned = true;
    this.owner.planned();
  }

  enter(op: number, readyAt: number, reserved: Readonly<Record<string, number>>): Promise<GateTurn> {
    if (this.closed) throw new InvalidArgumentError(`Lane.enter: job ${this.seq} has closed its lane (operator ${op})`);
    if (!this.planned) this.reserve(reserved);
    this.reserved = reserved;
    return this.owner.request(this, readyAt);
  }

  leave(_op: number, placed: OperatorPlacement | undefined): void {
    if (placed) {
      this.#start = Math.min(this.#start, placed.start);
      this.#finish = Math.max(this.#finish, placed.finish);
      this.demandLeft = Math.max(0, this.demandLeft - placed.demand);
      if (placed.seconds > 0) this.#work.push({ start: placed.start, finish: placed.finish, seconds: placed.seconds, devices: placed.devices });
    }
    this.owner.release(this, placed);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.reserved = {};
    this.owner.drop(this);
  }

  /** Where the job sat on the machine's timeline. */
  slot(): MachineSlot {
    const start = Number.isFinite(this.#start) ? this.#start : this.origin;
    const finish = Math.max(this.#finish, start);
    return { arrival: this.origin, start, finish, turnaround: finish - this.origin, composed: true, work: this.#work };
  }
}

/** Who a job is for: its tenant's priority and weight order the turns. */
export interface OpenJob {
  readonly tenant: string;
  readonly priority: number;
  readonly weight: number;
  readonly arrival: number;
}

export class Interleaver {
  readonly #lanes = new Set<Lane>();
  #pending: Request[] = [];
  #planWaiters: { lane: Lane; resolve: () => void }[] = [];
  #busy = false;
  #scheduled = false;
  #seq = 0;
  /** Work per weight each tenant's operators have taken (the fair share's virtual time). */
  readonly #vtime = new Map<string, number>();
  /** Open lanes per tenant. */
  readonly #openByTenant = new Map<string, number>();

  constructor(
    private readonly machine: MachineTimeline,
    /** Whether runs re-plan the rest at each turn (else each runs the plan it started with). */
    readonly elastic: boolean,
    /** Called before a turn is given, so jobs that arrived by then can open their lanes first. */
    private readonly admit: () => void = () => {},
  ) {}

  /** Open a lane for a job: until it closes, no turn is given while it has not said what it runs next. */
  open(job: OpenJob): Lane {
    const lane = new Lane(this, ++this.#seq, job, job.arrival);
    // A tenant coming back re-enters at the least virtual time of those with open jobs: idling banks no credit.
    const open = this.#openByTenant.get(job.tenant) ?? 0;
    if (open === 0) {
      let v = Infinity;
      for (const l of this.#lanes) v = Math.min(v, this.#vtime.get(l.job.tenant) ?? 0);
      this.#vtime.set(job.tenant, Math.max(this.#vtime.get(job.tenant) ?? 0, Number.isFinite(v) ? v : 0));
    }
    this.#lanes.add(lane);
    this.#openByTenant.set(job.tenant, open + 1);
    return lane;
  }

  /** The machine's clock for admitting replayed arrivals: when the earliest waiting operator is ready, else when a device is first free. */
  get clock(): number {
    if (this.#pending.length === 0) return this.machine.earliestFree;
    let t = Infinity;
    for (const r of this.#pending) t = Math.min(t, r.readyAt);
    return t;
  }

  /**
   * Device seconds reserved by the open jobs that go before `lane`: those of higher priority, and
   * at equal priority those a weighted fair order serves first, by virtual start (`#virtualStarts`).
   * Ranked by opening order instead, a job opened late planned behind every job open, though the
   * fair turns would serve much of that work after its own, and moved to slower devices for it.
   */
  ahead(lane: Lane): Record<string, number> {
    const starts = this.#virtualStarts();
    const mine = starts.get(lane) ?? 0;
    const out: Record<string, number> = {};
    for (const other of this.#lanes) {
      if (other === lane) continue;
      const v = starts.get(other)!;
      const first = other.priority > lane.priority || (other.priority === lane.priority && (v < mine || (v === mine && other.seq < lane.seq)));
      if (!first) continue;
      for (const [d, s] of Object.entries(other.reserved)) out[d] = (out[d] ?? 0) + s;
    }
    return out;
  }

  /**
   * Each open job's virtual start: its tenant's virtual time (work per weight taken so far) plus
   * the work the tenant's older open jobs still ask for, per weight. A tenant's jobs go
   * oldest first and tenants advance at rates set by their weights, so a job's turn comes about
   * when the fair clock reaches its virtual start (start-time fair queuing).
   */
  #virtualStarts(): Map<Lane, number> {
    const clock = new Map<string, number>();
    const out = new Map<Lane, number>();
    // A Set iterates in insertion order: each tenant's lanes oldest first.
    for (const l of this.#lanes) {
      const t = l.job.tenant;
      const v = clock.get(t) ?? this.#vtime.get(t) ?? 0;
      out.set(l, v);
      clock.set(t, v + l.demandLeft / l.job.weight);
    }
    return out;
  }

  /** What `lane`'s job plans against at its arrival: the machine's queues then, and the work reserved ahead of it. */
  backlogFor(lane: Lane): Backlog {
    const out: Record<string, number> = { ...this.machine.backlogAt(lane.origin) };
    for (const [d, s] of Object.entries(this.ahead(lane))) if (s > 0) out[d] = (out[d] ?? 0) + s;
    return out;
  }

  /**
   * Resolves once every job opened before `lane` has made its plan or closed: jobs plan in the
   * order they opened, each against the reservations of those before it.
   */
  earlierPlans(lane: Lane): Promise<void> {
    if (this.#earlierPlanned(lane)) return Promise.resolve();
    return new Promise((resolve) => this.#planWaiters.push({ lane, resolve }));
  }

  #earlierPlanned(lane: Lane): boolean {
    for (const other of this.#lanes) if (other.seq < lane.seq && !other.planned) return false;
    return true;
  }

  planned(): void {
    const waiting = this.#planWaiters;
    this.#planWaiters = [];
    for (const w of waiting) {
      if (w.lane.closed || this.#earlierPlanned(w.lane)) w.resolve();
      else this.#planWaiters.push(w);
    }
  }

  request(lane: Lane, readyAt: number): Promise<GateTurn> {
    return new Promise((grant) => {
      lane.waiting++;
      this.#pending.push({ lane, readyAt, grant });
      this.#schedule();
    });
  }

  release(lane: Lane, placed: OperatorPlacement | undefined): void {
    if (placed) {
      this.machine.occupy(placed.busyUntil);
      const t = lane.job.tenant;
      this.#vtime.set(t, (this.#vtime.get(t) ?? 0) + placed.demand / lane.job.weight);
    }
    this.#busy = false;
    this.#schedule();
  }

  /** A job ended (or failed): its reservation goes, and turns it still asked for are withdrawn (a failed run does not take them). */
  drop(lane: Lane): void {
    if (!this.#lanes.delete(lane)) return;
    const open = this.#openByTenant.get(lane.job.tenant)! - 1;
    if (open === 0) this.#openByTenant.delete(lane.job.tenant);
    else this.#openByTenant.set(lane.job.tenant, open);
    this.#pending = this.#pending.filter((r) => r.lane !== lane);
    this.planned();
    this.#schedule();
  }

  #before(a: Request, b: Request): boolean {
    const pa = a.lane.priority;
    const pb = b.lane.priority;
    if (pa !== pb) return pa > pb;
    // One tenant's jobs go oldest first: interleaved, all of them would finish late together.
    if (a.lane.job.tenant === b.lane.job.tenant) return a.lane.seq < b.lane.seq;
    const va = this.#vtime.get(a.lane.job.tenant) ?? 0;
    const vb = this.#vtime.get(b.lane.job.tenant) ?? 0;
    if (va !== vb) return va < vb;
    if (a.readyAt !== b.readyAt) return a.readyAt < b.readyAt;
    return a.lane.seq < b.lane.seq;
  }

  /** Look for a turn to give once the promise chains running now have settled (they may ask for turns). */
  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.#give();
    });
  }

  #give(): void {
    if (this.#busy || this.#pending.length === 0) return;
    const open = this.#lanes.size;
    this.admit();
    // A job admitted just now (its lane opened) says what it runs first before anyone moves on.
    if (this.#lanes.size !== open) return;
    for (const lane of this.#lanes) if (lane.waiting === 0) return;
    // The operators ready by the time the machine can next start one compete: the higher priority,
    // then the tenant with the least work per weight (weighted fair shares), then the
    // earliest ready, then the job opened first. Later-ready operators wait for their time.
    let soonest = Infinity;
    for (const r of this.#pending) soonest = Math.min(soonest, r.readyAt);
    const now = Math.max(soonest, this.machine.earliestFree);
    let best = 0;
    for (let k = 1; k < this.#pending.length; k++) {
      const a = this.#pending[k]!;
      const b = this.#pending[best]!;
      if (a.readyAt <= now && (b.readyAt > now || this.#before(a, b))) best = k;
    }
    const r = this.#pending.splice(best, 1)[0]!;
    r.lane.waiting--;
    this.#busy = true;
    r.grant({ free: this.machine.snapshot(), ahead: this.ahead(r.lane), elastic: this.elastic });
  }
}
