// Turns a mapping (one choice per operator) into makespan, energy, throughput and peak memory,
// by the list schedule in list-schedule.ts (devices run their parts one after another, copies
// share each link direction, split operators join on the host), and checks the constraints.
// Energy is the parts' active energy plus the idle power of the devices the mapping uses over
// the rest of the run: a device the mapping leaves alone (or the user excluded) is not billed,
// since it is free for other work or can be powered down.

import type { System } from '../devices/system.js';
import type { BoundWorkload } from '../workloads/bind.js';
import { ListSchedule, type Recorder, type TimelineEntry, type TransferEntry } from './list-schedule.js';
import type { CostTable } from './space.js';
import { type Backlog, backlogStarts } from './backlog.js';
import { formatBytes, formatChange, formatJoules, formatSeconds } from '../units.js';

export type { TimelineEntry, TransferEntry };

/** What the search may minimise. */
export type Objective = 'time' | 'energy' | 'memory' | 'latency';
export const OBJECTIVES: readonly Objective[] = ['time', 'energy', 'memory', 'latency'];

export interface Constraints {
  /**
   * Work queued ahead on devices and link directions, in seconds (checked by `checkBacklog`): the
   * mapping starts each of them after it, and the makespan counts the wait.
   */
  readonly backlog?: Backlog;
  /** Longest acceptable makespan (a stream: seconds per input), in seconds. */
  readonly deadline?: number;
  /** Most energy acceptable (a stream: joules per input), in joules. */
  readonly energyBudget?: number;
}

/** The full evaluation of one mapping. */
export interface Metrics {
  /** Makespan of one run (one input of a stream), in seconds. */
  readonly makespan: number;
  /** Seconds per input in steady state (streams); equal to makespan otherwise. */
  readonly period: number;
  /** Inputs per second: 1 / period. */
  readonly throughput: number;
  /** Joules for one run (a stream: per input in steady state). */
  readonly energy: number;
  readonly activeEnergy: number;
  readonly idleEnergy: number;
  /** Busy seconds per device (system order). */
  readonly busy: readonly number[];
  /** Peak bytes held per memory space (nothing freed before the end: an upper bound). */
  readonly memory: Readonly<Record<string, number>>;
  readonly feasible: boolean;
  /** Why not, when not feasible. */
  readonly violations: readonly string[];
  readonly timeline: readonly TimelineEntry[];
  readonly transfers: readonly TransferEntry[];
}

/**
 * A reusable evaluator for one bound workload, system and cost table. `evaluate` allocates
 * nothing, so the search can call it 1e5 times in well under 100 ms.
 */
export class Evaluator {
  /** The list schedule it runs (the oracle's search places operators on it one by one). */
  readonly schedule: ListSchedule;
  private readonly S: number;
  private readonly capacity: Float64Array;
  private readonly idleWatts: Float64Array;
  /** Per device: memory it may address (host-memory devices are checked on their own working set). */
  private readonly deviceCapacity: Float64Array;
  private readonly deviceOnHost: Uint8Array;
  private readonly stream: boolean;
  private readonly objectiveCodes: Int32Array;

  constructor(
    readonly bound: BoundWorkload,
    readonly system: System,
    readonly table: CostTable,
    readonly objectives: readonly Objective[],
    readonly constraints: Constraints = {},
  ) {
    this.schedule = new ListSchedule(bound, system, table);
    if (constraints.backlog) {
      const starts = backlogStarts(system, constraints.backlog);
      this.schedule.devStart.set(starts.devices);
      this.schedule.linkStart.set(starts.links);
    }
    const spaces = this.schedule.spaces;
    const S = (this.S = spaces.length);
    // A memory of its own is bounded by its device; host memory by the largest host device (the
    // CPU's RAM), while each host-memory device's own working set is checked against what it
    // can address (a CGRA's DMA window).
    this.capacity = new Float64Array(S).fill(Infinity);
    for (let s = 0; s < S; s++) {
      const on = system.devices.filter((d) => d.memorySpace === spaces[s]);
      if (on.length)
        this.capacity[s] = s === 0 ? Math.max(...on.map((d) => d.capabilities.memoryBytes)) : Math.min(...on.map((d) => d.capabilities.memoryBytes));
    }
    this.deviceCapacity = Float64Array.from(system.devices.map((d) => d.capabilities.memoryBytes));
    this.deviceOnHost = Uint8Array.from(system.devices.map((d) => (d.memorySpace === spaces[0] ? 1 : 0)));
    this.idleWatts = Float64Array.from(system.devices.map((d) => d.power.idleWatts));
    this.stream = bound.workload.stream;
    this.objectiveCodes = Int32Array.from(objectives.map((o) => OBJECTIVES.indexOf(o)));
  }

  /** Objectives of `genome` into `out`; false when it breaks a constraint or does not fit in memory. */
  evaluate(genome: Int32Array, out: Float64Array): boolean {
    const makespan = this.schedule.run(genome, null);
    return this.finish(makespan, out);
  }

  /** Everything about one mapping: timeline, transfers, energy split, memory. */
  metrics(genome: Int32Array): Metrics {
    const rec: Recorder = { parts: [], transfers: [] };
    const makespan = this.schedule.run(genome, rec);
    this.settle(makespan);
    const { period, idleEnergy: idle } = this;
    const active = this.schedule.active;
    const violations = this.violations(makespan, period, active + idle);
    const memory: Record<string, number> = {};
    const memUse = this.schedule.memUse;
    this.schedule.spaces.forEach((s, i) => (memory[s] = memUse[i]!));
    return {
      makespan,
      period,
      throughput: 1 / period,
      energy: active + idle,
      activeEnergy: active,
      idleEnergy: idle,
      busy: Array.from(this.schedule.busy),
      memory,
      feasible: violations.length === 0,
      violations,
      timeline: rec.parts,
      transfers: rec.transfers,
    };
  }

  private period = 0;
  private idleEnergy = 0;

  /**
   * Sets `period` and `idleEnergy` from the schedule's state after a run (or, in a search that
   * places operators one by one, after `finishOutputs`); allocates nothing.
   */
  settle(makespan: number): void {
    let period = makespan;
    const { busy, used, linkBusy, devStart } = this.schedule;
    if (this.stream) {
      period = 0;
      for (let d = 0; d < busy.length; d++) if (busy[d]! > period) period = busy[d]!;
      for (let l = 0; l < linkBusy.length; l++) if (linkBusy[l]! > period) period = linkBusy[l]!;
      // Back-to-back runs already achieve one input per makespan.
      if (period > makespan) period = makespan;
    }
    let idle = 0;
    for (let d = 0; d < busy.length; d++) {
      // A device's backlog is other work's time, not this mapping's idle time.
      const rest = period - busy[d]! - devStart[d]!;
      if (used[d] === 1 && rest > 0) idle += this.idleWatts[d]! * rest;
    }
    this.period = period;
    this.idleEnergy = idle;
  }

  /** The objectives of the last settled run into `out`; false when it breaks a constraint or does not fit. */
  finish(makespan: number, out: Float64Array): boolean {
    this.settle(makespan);
    const energy = this.schedule.active + this.idleEnergy;
    const time = this.stream ? this.period : makespan;
    const mem = this.schedule.memUse;
    let peak = 0;
    for (let s = 1; s < this.S; s++) if (mem[s]! > peak) peak = mem[s]!;
    if (this.S === 1) peak = mem[0]!;
    const codes = this.objectiveCodes;
    for (let k = 0; k < codes.length; k++) {
      const o = codes[k];
      out[k] = o === 0 ? time : o === 1 ? energy : o === 2 ? peak : makespan;
    }
    if (!this.fits()) return false;
    const c = this.constraints;
    if (c.deadline !== undefined && time > c.deadline) return false;
    if (c.energyBudget !== undefined && energy > c.energyBudget) return false;
    return true;
  }

  /** Whether what the schedule holds so far fits every memory (it only grows as operators are placed). */
  fits(): boolean {
    const mem = this.schedule.memUse;
    const touched = this.schedule.touched;
    for (let s = 0; s < this.S; s++) if (mem[s]! > this.capacity[s]!) return false;
    for (let d = 0; d < touched.length; d++) if (this.deviceOnHost[d] === 1 && touched[d]! > this.deviceCapacity[d]!) return false;
    return true;
  }

  private violations(makespan: number, period: number, energy: number): string[] {
    const v: string[] = [];
    const spaces = this.schedule.spaces;
    const mem = this.schedule.memUse;
    const touched = this.schedule.touched;
    for (let s = 0; s < this.S; s++) {
      if (mem[s]! > this.capacity[s]!) v.push(`memory of ${spaces[s]}: needs ${formatBytes(mem[s]!)}, holds ${formatBytes(this.capacity[s]!)}`);
    }
    for (let d = 0; d < touched.length; d++) {
      if (this.deviceOnHost[d] === 1 && touched[d]! > this.deviceCapacity[d]!) {
        v.push(
          `memory ${this.system.devices[d]!.name} can address: its operators touch ${formatBytes(touched[d]!)}, it reaches ${formatBytes(this.deviceCapacity[d]!)}`,
        );
      }
    }
    const time = this.stream ? period : makespan;
    const c = this.constraints;
    if (c.deadline !== undefined && time > c.deadline)
      v.push(`deadline: ${formatSeconds(time)} > ${formatSeconds(c.deadline)} (${formatChange(time / c.deadline - 1)})`);
    if (c.energyBudget !== undefined && energy > c.energyBudget)
      v.push(`energy budget: ${formatJoules(energy)} > ${formatJoules(c.energyBudget)} (${formatChange(energy / c.energyBudget - 1)})`);
    return v;
  }
}
