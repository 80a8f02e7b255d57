// Turns a mapping (one choice per operator) into makespan, energy, throughput and peak memory, by
// list-scheduling the DAG in topological order: each device runs its parts one after another,
// an operand missing from a device's memory is copied over the system's links (the copy starts
// when the operand is ready, so it overlaps other work), split operators join on the host.
// Energy is the parts' active energy plus every device's idle power over the rest of the run.

import { HOST, type System } from '../devices/system.js';
import type { BoundWorkload } from '../workloads/bind.js';
import type { CostTable } from './space.js';

/** What the search may minimise. */
export type Objective = 'time' | 'energy' | 'memory' | 'latency';
export const OBJECTIVES: readonly Objective[] = ['time', 'energy', 'memory', 'latency'];

export interface Constraints {
  /** Longest acceptable makespan (a stream: seconds per input), in seconds. */
  readonly deadline?: number;
  /** Most energy acceptable (a stream: joules per input), in joules. */
  readonly energyBudget?: number;
}

/** One part of one operator placed on the timeline. */
export interface TimelineEntry {
  readonly op: number;
  readonly device: number;
  readonly begin: number;
  readonly end: number;
  /** Start and end, in seconds from the start of the run. */
  readonly start: number;
  readonly finish: number;
  readonly seconds: number;
  readonly joules: number;
}

export interface TransferEntry {
  readonly value: number;
  readonly from: string;
  readonly to: string;
  readonly bytes: number;
  readonly start: number;
  readonly finish: number;
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

interface Recorder {
  parts: TimelineEntry[];
  transfers: TransferEntry[];
}

/**
 * A reusable evaluator for one bound workload, system and cost table. `evaluate` allocates
 * nothing, so the search can call it 1e5 times in well under 100 ms.
 */
export class Evaluator {
  private readonly S: number;
  private readonly spaces: string[];
  private readonly spaceOf: Int32Array;
  private readonly lat: Float64Array;
  private readonly invBw: Float64Array;
  private readonly capacity: Float64Array;
  private readonly idleWatts: Float64Array;
  private readonly valueBytes: Float64Array;
  private readonly inputValues: Int32Array;
  private readonly inputBytes: number;
  private readonly opOperandBegin: Int32Array;
  private readonly operandValue: Int32Array;
  /** Per device: memory it may address (host-memory devices are checked on their own working set). */
  private readonly deviceCapacity: Float64Array;
  private readonly deviceOnHost: Uint8Array;
  private readonly touched: Float64Array;
  /** Per part of the cost table: bytes it reads of each operand (from `partNeedBegin`), writes, and touches in all. */
  private readonly partNeedBegin: Int32Array;
  private readonly partNeeds: Float64Array;
  private readonly partOutBytes: Float64Array;
  private readonly partTouched: Float64Array;
  private readonly opOutput: Int32Array;
  private readonly outputs: Int32Array;
  // Scratch, reused by every evaluation.
  private readonly ready: Float64Array;
  private readonly devFree: Float64Array;
  private readonly busy: Float64Array;
  private readonly linkBusy: Float64Array;
  private readonly memUse: Float64Array;
  private readonly stream: boolean;
  private readonly objectiveCodes: Int32Array;

  constructor(
    readonly bound: BoundWorkload,
    readonly system: System,
    readonly table: CostTable,
    readonly objectives: readonly Objective[],
    readonly constraints: Constraints = {},
  ) {
    this.spaces = system.memorySpaces;
    const S = (this.S = this.spaces.length);
    this.spaceOf = Int32Array.from(system.devices.map((d) => this.spaces.indexOf(d.memorySpace)));
    this.lat = new Float64Array(S * S);
    this.invBw = new Float64Array(S * S);
    for (let a = 0; a < S; a++) {
      for (let b = 0; b < S; b++) {
        if (a === b) continue;
        for (const link of system.route(this.spaces[a]!, this.spaces[b]!)) {
          this.lat[a * S + b]! += link.latency;
          this.invBw[a * S + b]! += 1 / link.bandwidth;
        }
      }
    }
    // A memory of its own is bounded by its device; host memory by the largest host device (the
    // CPU's RAM), while each host-memory device's own working set is checked against what it
    // can address (a CGRA's DMA window).
    this.capacity = new Float64Array(S).fill(Infinity);
    for (let s = 0; s < S; s++) {
      const on = system.devices.filter((d) => d.memorySpace === this.spaces[s]);
      if (on.length) this.capacity[s] = s === 0 ? Math.max(...on.map((d) => d.capabilities.memoryBytes)) : Math.min(...on.map((d) => d.capabilities.memoryBytes));
    }
    this.deviceCapacity = Float64Array.from(system.devices.map((d) => d.capabilities.memoryBytes));
    this.deviceOnHost = Uint8Array.from(system.devices.map((d) => (d.memorySpace === HOST ? 1 : 0)));
    this.touched = new Float64Array(system.devices.length);
    this.idleWatts = Float64Array.from(system.devices.map((d) => d.power.idleWatts));
    const V = bound.values.length;
    this.valueBytes = Float64Array.from(bound.values.map((v) => v.bytes));
    this.inputValues = Int32Array.from(bound.values.flatMap((v, i) => (v.producer < 0 ? [i] : [])));
    this.inputBytes = bound.values.reduce((sum, v) => sum + (v.producer < 0 ? v.bytes : 0), 0);
    const n = bound.ops.length;
    this.opOperandBegin = new Int32Array(n + 1);
    const operands: number[] = [];
    bound.ops.forEach((op, i) => {
      this.opOperandBegin[i] = operands.length;
      operands.push(...op.operands);
    });
    // What each part moves depends only on the part, so it is computed once here, not per mapping.
    const nParts = table.partDevice.length;
    this.partNeedBegin = new Int32Array(nParts);
    this.partOutBytes = new Float64Array(nParts);
    this.partTouched = new Float64Array(nParts);
    const needs: number[] = [];
    bound.ops.forEach((op, i) => {
      for (let c = 0; c < table.choiceCount[i]!; c++) {
        const g = table.choiceBase[i]! + c;
        const pc = table.partCount[g]!;
        for (let p = table.partBegin[g]!; p < table.partBegin[g]! + pc; p++) {
          this.partNeedBegin[p] = needs.length;
          let touched = 0;
          op.operands.forEach((v, j) => {
            const b = bound.values[v]!.bytes;
            const need = pc === 1 || op.whole[j] ? b : b * (bound.values[v]!.kind === 'sparse' ? table.partFraction[p]! : table.partRowFraction[p]!);
            needs.push(need);
            touched += need;
          });
          const out = bound.values[op.output]!.bytes * (pc === 1 ? 1 : table.partRowFraction[p]!);
          this.partOutBytes[p] = out;
          this.partTouched[p] = touched + out;
        }
      }
    });
    this.partNeeds = Float64Array.from(needs);
    this.opOperandBegin[n] = operands.length;
    this.operandValue = Int32Array.from(operands);
    this.opOutput = Int32Array.from(bound.ops.map((o) => o.output));
    this.outputs = Int32Array.from(bound.outputs);
    this.ready = new Float64Array(V * S);
    this.devFree = new Float64Array(system.devices.length);
    this.busy = new Float64Array(system.devices.length);
    this.linkBusy = new Float64Array(2 * S);
    this.memUse = new Float64Array(S);
    this.stream = bound.workload.stream;
    this.objectiveCodes = Int32Array.from(objectives.map((o) => OBJECTIVES.indexOf(o)));
  }

  /** Objectives of `genome` into `out`; false when it breaks a constraint or does not fit in memory. */
  evaluate(genome: Int32Array, out: Float64Array): boolean {
    const makespan = this.run(genome, null);
    return this.finish(makespan, out);
  }

  /** Everything about one mapping: timeline, transfers, energy split, memory. */
  metrics(genome: Int32Array): Metrics {
    const rec: Recorder = { parts: [], transfers: [] };
    const makespan = this.run(genome, rec);
    const { period, active, idle } = this.totals(makespan);
    const violations = this.violations(makespan, period, active + idle);
    const memory: Record<string, number> = {};
    this.spaces.forEach((s, i) => (memory[s] = this.memUse[i]!));
    return {
      makespan,
      period,
      throughput: 1 / period,
      energy: active + idle,
      activeEnergy: active,
      idleEnergy: idle,
      busy: Array.from(this.busy),
      memory,
      feasible: violations.length === 0,
      violations,
      timeline: rec.parts,
      transfers: rec.transfers,
    };
  }

  private period = 0;
  private idleEnergy = 0;
  private activeEnergy = 0;

  /** Sets `period` and `idleEnergy` from the last run; allocates nothing. */
  private settle(makespan: number): void {
    let period = makespan;
    const busy = this.busy;
    if (this.stream) {
      period = 0;
      for (let d = 0; d < busy.length; d++) if (busy[d]! > period) period = busy[d]!;
      for (let s = 0; s < 2 * this.S; s++) if (this.linkBusy[s]! > period) period = this.linkBusy[s]!;
      // Back-to-back runs already achieve one input per makespan.
      if (period > makespan) period = makespan;
    }
    let idle = 0;
    for (let d = 0; d < busy.length; d++) {
      const rest = period - busy[d]!;
      if (rest > 0) idle += this.idleWatts[d]! * rest;
    }
    this.period = period;
    this.idleEnergy = idle;
  }

  private totals(makespan: number): { period: number; active: number; idle: number } {
    this.settle(makespan);
    return { period: this.period, active: this.activeEnergy, idle: this.idleEnergy };
  }

  private finish(makespan: number, out: Float64Array): boolean {
    this.settle(makespan);
    const energy = this.activeEnergy + this.idleEnergy;
    const time = this.stream ? this.period : makespan;
    const mem = this.memUse;
    let peak = 0;
    for (let s = 1; s < this.S; s++) if (mem[s]! > peak) peak = mem[s]!;
    if (this.S === 1) peak = mem[0]!;
    const codes = this.objectiveCodes;
    for (let k = 0; k < codes.length; k++) {
      const o = codes[k];
      out[k] = o === 0 ? time : o === 1 ? energy : o === 2 ? peak : makespan;
    }
    for (let s = 0; s < this.S; s++) if (mem[s]! > this.capacity[s]!) return false;
    for (let d = 0; d < this.touched.length; d++) if (this.deviceOnHost[d] === 1 && this.touched[d]! > this.deviceCapacity[d]!) return false;
    const c = this.constraints;
    if (c.deadline !== undefined && time > c.deadline) return false;
    if (c.energyBudget !== undefined && energy > c.energyBudget) return false;
    return true;
  }

  private violations(makespan: number, period: number, energy: number): string[] {
    const v: string[] = [];
    for (let s = 0; s < this.S; s++) {
      if (this.memUse[s]! > this.capacity[s]!) v.push(`memory of ${this.spaces[s]}: needs ${this.memUse[s]} B, holds ${this.capacity[s]} B`);
    }
    for (let d = 0; d < this.touched.length; d++) {
      if (this.deviceOnHost[d] === 1 && this.touched[d]! > this.deviceCapacity[d]!) {
        v.push(`memory ${this.system.devices[d]!.name} can address: its operators touch ${this.touched[d]} B, it reaches ${this.deviceCapacity[d]} B`);
      }
    }
    const time = this.stream ? period : makespan;
    const c = this.constraints;
    if (c.deadline !== undefined && time > c.deadline) v.push(`deadline: ${time} s > ${c.deadline} s`);
    if (c.energyBudget !== undefined && energy > c.energyBudget) v.push(`energy budget: ${energy} J > ${c.energyBudget} J`);
    return v;
  }

  /** The list schedule; returns the makespan and leaves busy, linkBusy, memUse and activeEnergy set. */
  private run(genome: Int32Array, rec: Recorder | null): number {
    const S = this.S;
    const t = this.table;
    const ready = this.ready;
    const bytes = this.valueBytes;
    const spaceOf = this.spaceOf;
    const lat = this.lat;
    const invBw = this.invBw;
    const devFree = this.devFree;
    const busy = this.busy;
    const linkBusy = this.linkBusy;
    const memUse = this.memUse;
    const opOperandBegin = this.opOperandBegin;
    const operandValue = this.operandValue;
    const choiceBase = t.choiceBase;
    const partBegin = t.partBegin;
    const partCount = t.partCount;
    const partDevice = t.partDevice;
    const partSeconds = t.partSeconds;
    const partJoules = t.partJoules;
    // Plain loops: on arrays this small, TypedArray.fill's call costs more than the work.
    const touched = this.touched;
    for (let x = 0; x < ready.length; x++) ready[x] = Infinity;
    for (let x = 0; x < devFree.length; x++) {
      devFree[x] = 0;
      busy[x] = 0;
      touched[x] = 0;
    }
    for (let x = 0; x < linkBusy.length; x++) linkBusy[x] = 0;
    for (let x = 0; x < memUse.length; x++) memUse[x] = 0;
    const partNeedBegin = this.partNeedBegin;
    const partNeeds = this.partNeeds;
    const partOutBytes = this.partOutBytes;
    const partTouched = this.partTouched;
    const inputs = this.inputValues;
    for (let x = 0; x < inputs.length; x++) ready[inputs[x]! * S] = 0;
    memUse[0] = this.inputBytes;
    let active = 0;
    let makespan = 0;
    const nOps = this.opOutput.length;
    for (let i = 0; i < nOps; i++) {
      const g = choiceBase[i]! + genome[i]!;
      const pb = partBegin[g]!;
      const pc = partCount[g]!;
      const outV = this.opOutput[i]!;
      let joined = 0;
      for (let p = pb; p < pb + pc; p++) {
        const d = partDevice[p]!;
        const s = spaceOf[d]!;
        let start = devFree[d]!;
        touched[d]! += partTouched[p]!;
        const nb = partNeedBegin[p]! - opOperandBegin[i]!;
        for (let k = opOperandBegin[i]!; k < opOperandBegin[i + 1]!; k++) {
          const v = operandValue[k]!;
          let at = ready[v * S + s]!;
          if (at === Infinity) {
            const need = partNeeds[nb + k]!;
            let from = 0;
            for (let s2 = 0; s2 < S; s2++) {
              const r = ready[v * S + s2]!;
              if (r === Infinity) continue;
              const c = r + lat[s2 * S + s]! + need * invBw[s2 * S + s]!;
              if (c < at) {
                at = c;
                from = s2;
              }
            }
            // Occupancy per link direction: bytes over bandwidth (latencies of copies overlap).
            linkBusy[2 * (s === 0 ? from : s) + (s === 0 ? 1 : 0)]! += need * invBw[from * S + s]!;
            memUse[s]! += need;
            if (need === bytes[v]!) ready[v * S + s] = at;
            if (rec) rec.transfers.push({ value: v, from: this.spaces[from]!, to: this.spaces[s]!, bytes: need, start: ready[v * S + from]!, finish: at });
          }
          if (at > start) start = at;
        }
        const sec = partSeconds[p]!;
        let end = start + sec;
        devFree[d] = end;
        busy[d]! += sec;
        active += partJoules[p]!;
        if (rec) {
          const ch = t.choices[i]![genome[i]!]!.parts[p - pb]!;
          rec.parts.push({ op: i, device: d, begin: ch.begin, end: ch.end, start, finish: end, seconds: sec, joules: partJoules[p]! });
        }
        if (end > makespan) makespan = end;
        const outBytes = partOutBytes[p]!;
        if (pc === 1) {
          ready[outV * S + s] = end;
          memUse[s]! += outBytes;
        } else {
          memUse[s]! += outBytes;
          if (s !== 0) {
            const back = lat[s * S]! + outBytes * invBw[s * S]!;
            linkBusy[2 * s + 1]! += outBytes * invBw[s * S]!;
            if (rec) rec.transfers.push({ value: outV, from: this.spaces[s]!, to: HOST, bytes: outBytes, start: end, finish: end + back });
            end += back;
          }
          if (end > joined) joined = end;
        }
      }
      if (pc > 1) {
        ready[outV * S] = joined;
        memUse[0]! += bytes[outV]!;
        if (joined > makespan) makespan = joined;
      }
    }
    // Results end on the host.
    for (let k = 0; k < this.outputs.length; k++) {
      const v = this.outputs[k]!;
      let at = ready[v * S]!;
      if (at === Infinity) {
        let from = 0;
        for (let s2 = 1; s2 < S; s2++) {
          const r = ready[v * S + s2]!;
          if (r === Infinity) continue;
          const c = r + this.lat[s2 * S]! + bytes[v]! * this.invBw[s2 * S]!;
          if (c < at) {
            at = c;
            from = s2;
          }
        }
        this.linkBusy[2 * from + 1]! += bytes[v]! * this.invBw[from * S]!;
        this.memUse[0]! += bytes[v]!;
        if (rec) rec.transfers.push({ value: v, from: this.spaces[from]!, to: HOST, bytes: bytes[v]!, start: ready[v * S + from]!, finish: at });
      }
      if (at > makespan) makespan = at;
    }
    this.activeEnergy = active;
    return makespan;
  }
}
