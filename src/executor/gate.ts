// A run that shares its machine with other runs, operator by operator. Before each operator starts,
// the run asks a gate (the shared service's interleaver) for its turn on the machine's composed
// clock; the gate answers when every run sharing the machine has said what it will do next, with
// when each device and link direction is free then and the work reserved ahead of this run. An
// elastic run re-plans its operators not yet started against that state (it grows onto devices
// others have left, and shrinks away from those a run ahead has reserved); then it runs the
// operator and puts its pieces on the machine at their observed durations, by the same list
// schedule that composes a run alone, so the machine's timeline is one composed schedule of every
// run's pieces.

import { backlogNames, type Backlog } from '../scheduler/backlog.js';
import { ListSchedule, type Recorder } from '../scheduler/list-schedule.js';
import type { PieceMap } from '../scheduler/piece-map.js';
import type { Plan } from '../scheduler/schedule.js';
import { type CostSource, CostTable } from '../scheduler/space.js';
import type { PieceResult } from './piece.js';

/** The machine's state when a run's operator gets its turn. */
export interface GateTurn {
  /** When each device and link direction (backlog names) is next free, on the gate's clock. */
  readonly free: Readonly<Record<string, number>>;
  /** Device seconds reserved by runs that go before this one (their operators not yet placed). */
  readonly ahead: Readonly<Record<string, number>>;
  /** Whether the run re-plans its remaining operators against this state (elasticity). */
  readonly elastic: boolean;
}

/** Where an operator (or the copy of a run's results home) went on the machine. */
export interface OperatorPlacement {
  readonly start: number;
  readonly finish: number;
  /** Device seconds its pieces took. */
  readonly seconds: number;
  /**
   * Seconds the operator asks for wherever it runs, as its plan priced its fastest way
   * (`CostTable.operatorDemand`): what a fair share charges, since the backlog, not the tenant,
   * chose the device.
   */
  readonly demand: number;
  /** The same seconds by device name. */
  readonly devices: Readonly<Record<string, number>>;
  /** When each device and link direction it used is free again, on the gate's clock. */
  readonly busyUntil: Readonly<Record<string, number>>;
}

/** Operator `OUTPUTS` is the copy of the run's results home, after its last operator. */
export const OUTPUTS = -1;

/**
 * The shared machine, as one run sees it. `enter` and `leave` alternate per operator; `close`
 * ends the run's part in the machine (also after a failure), and is safe to call twice.
 */
export interface OperatorGate {
  /** When the run's inputs are on the host, on the gate's clock (its arrival). */
  readonly origin: number;
  /**
   * Wait for operator `op`'s turn: its operands are ready at `readyAt` (gate clock), and the run's
   * operators not yet started are predicted to hold each device `reserved` seconds.
   */
  enter(op: number, readyAt: number, reserved: Readonly<Record<string, number>>): Promise<GateTurn>;
  /** Operator `op` ran and was placed (undefined: it failed or was cancelled; nothing was placed). */
  leave(op: number, placed: OperatorPlacement | undefined): void;
  close(): void;
}

/**
 * A run's own composed timeline on the shared machine's clock, built operator by operator: each
 * operator is placed at its observed piece durations after the machine's devices and links are
 * free (as the gate reports them) and after its operands have arrived.
 */
export class GatedTimeline {
  private readonly table: CostTable;
  private readonly schedule: ListSchedule;
  private readonly names: readonly string[];
  private first = Infinity;

  constructor(
    private readonly plan: Plan,
    origin: number,
  ) {
    const { bound, choices, system } = plan.problem;
    const zero: CostSource = { cost: () => ({ seconds: 0, joules: 0 }) };
    this.table = new CostTable(choices, bound.ops, zero);
    this.schedule = new ListSchedule(bound, system, this.table);
    this.schedule.reset();
    // The inputs are on the host from the run's arrival on.
    const S = this.schedule.S;
    bound.values.forEach((v, i) => {
      if (v.producer < 0) this.schedule.ready[i * S] = origin;
    });
    this.names = backlogNames(system);
  }

  /** When every operand of operator i has been computed somewhere (gate clock). */
  readyAt(i: number): number {
    return this.computed(this.plan.problem.bound.ops[i]!.operands);
  }

  /** When the run's results are all computed (before their copies home). */
  outputsReady(): number {
    return this.computed(this.plan.problem.bound.outputs);
  }

  /** When every one of `values` exists somewhere: the latest of each value's earliest copy. */
  private computed(values: readonly number[]): number {
    const S = this.schedule.S;
    let at = 0;
    for (const v of values) {
      let soonest = Infinity;
      for (let s = 0; s < S; s++) soonest = Math.min(soonest, this.schedule.ready[v * S + s]!);
      at = Math.max(at, soonest);
    }
    return at;
  }

  /** The machine's state as the gate reported it: nothing starts before it. */
  private startFrom(free: Readonly<Record<string, number>>): void {
    const { devFree, linkFree } = this.schedule;
    const D = devFree.length;
    this.names.forEach((n, k) => {
      const f = free[n] ?? 0;
      if (k < D) devFree[k] = Math.max(devFree[k]!, f);
      else linkFree[k - D] = Math.max(linkFree[k - D]!, f);
    });
  }

  private placement(rec: Recorder, before: Float64Array, finish: number, demand: number): OperatorPlacement {
    const { devFree, linkFree } = this.schedule;
    const D = devFree.length;
    const busyUntil: Record<string, number> = {};
    this.names.forEach((n, k) => {
      const now = k < D ? devFree[k]! : linkFree[k - D]!;
      if (now > before[k]!) busyUntil[n] = now;
    });
    let start = Infinity;
    for (const p of rec.parts) start = Math.min(start, p.start);
    for (const t of rec.transfers) start = Math.min(start, t.start);
    if (!Number.isFinite(start)) start = finish;
    this.first = Math.min(this.first, start);
    let seconds = 0;
    const devices: Record<string, number> = {};
    for (const p of rec.parts) {
      seconds += p.seconds;
      const name = this.names[p.device]!;
      devices[name] = (devices[name] ?? 0) + p.seconds;
    }
    return { start, finish, seconds, demand, devices, busyUntil };
  }

  private freeTimes(): Float64Array {
    const { devFree, linkFree } = this.schedule;
    const out = new Float64Array(devFree.length + linkFree.length);
    out.set(devFree);
    out.set(linkFree, devFree.length);
    return out;
  }

  /** Place operator i with choice c at the observed durations of its pieces. */
  place(i: number, c: number, observed: PieceMap<PieceResult>, free: Readonly<Record<string, number>>): OperatorPlacement {
    const { bound, choices } = this.plan.problem;
    const t = this.table;
    const g = t.choiceBase[i]! + c;
    choices[i]![c]!.parts.forEach((part, k) => {
      const r = observed.get(i, part.device, part.begin, part.end);
      t.partSeconds[t.partBegin[g]! + k] = r?.seconds ?? 0;
      t.partJoules[t.partBegin[g]! + k] = r?.joules ?? 0;
    });
    this.startFrom(free);
    const before = this.freeTimes();
    const rec: Recorder = { parts: [], transfers: [] };
    this.schedule.place(i, c, rec);
    const S = this.schedule.S;
    const out = bound.ops[i]!.output;
    let finish = 0;
    for (let s = 0; s < S; s++) {
      const r = this.schedule.ready[out * S + s]!;
      if (r !== Infinity) finish = Math.max(finish, r);
    }
    return this.placement(rec, before, finish, this.plan.problem.table.operatorDemand(i));
  }

  /** Copy the results home after the last operator. */
  placeOutputs(free: Readonly<Record<string, number>>): OperatorPlacement {
    this.startFrom(free);
    const before = this.freeTimes();
    const rec: Recorder = { parts: [], transfers: [] };
    const finish = Math.max(this.schedule.finishOutputs(rec), this.outputsReady());
    return this.placement(rec, before, finish, 0);
  }

  /** When the run's first piece or copy started on the machine (Infinity before any). */
  get started(): number {
    return this.first;
  }
}

/** The backlog an operator ready at `readyAt` finds: the machine's queues then, plus the work reserved ahead of it. */
export function turnBacklog(turn: GateTurn, readyAt: number): Backlog {
  const out: Record<string, number> = {};
  for (const [n, f] of Object.entries(turn.free)) if (f > readyAt) out[n] = f - readyAt;
  for (const [n, s] of Object.entries(turn.ahead)) if (s > 0) out[n] = (out[n] ?? 0) + s;
  return out;
}

/** Predicted device seconds of the operators not started, under `genome`, by device name. */
export function reservedSeconds(plan: Plan, costs: CostSource, genome: Int32Array, started: readonly boolean[]): Record<string, number> {
  const { bound, choices, system } = plan.problem;
  const out: Record<string, number> = {};
  bound.ops.forEach((op, i) => {
    if (started[i]) return;
    for (const part of choices[i]![genome[i]!]!.parts) {
      const name = system.devices[part.device]!.name;
      out[name] = (out[name] ?? 0) + costs.cost(op, part.device, part.begin, part.end).seconds;
    }
  });
  return out;
}
