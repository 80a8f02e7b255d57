// The list schedule behind every evaluation of a mapping: operators placed one by one in
// topological order, each part on its device after the device's previous part and after its
// operands have arrived; an operand missing from a device's memory is copied over the system's
// links when it is ready, and each direction of a link carries one copy at a time (a copy waits
// for the ones before it: bandwidth is shared, not multiplied). Split operators join on the host.
//
// The state is a handful of flat arrays, so a search can place operators incrementally and save
// and restore the state cheaply (the oracle's branch and bound), and an evaluation allocates nothing.

import { HOST, type System } from '../devices/system.js';
import type { BoundWorkload } from '../workloads/bind.js';
import type { CostTable } from './space.js';

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

/** One copy between memory spaces, on the timeline. */
export interface TransferEntry {
  readonly value: number;
  readonly from: string;
  readonly to: string;
  readonly bytes: number;
  readonly start: number;
  readonly finish: number;
}

export interface Recorder {
  parts: TimelineEntry[];
  transfers: TransferEntry[];
}

export class ListSchedule {
  readonly S: number;
  readonly D: number;
  readonly spaces: readonly string[];
  private readonly spaceOf: Int32Array;
  /** Per ordered pair of spaces (a * S + b): total latency and seconds per byte of the route. */
  private readonly lat: Float64Array;
  private readonly invBw: Float64Array;
  /** Per ordered pair: the link directions the route occupies, `routeDirs[routeBegin[pair] ..routeBegin[pair + 1]]`. */
  private readonly routeBegin: Int32Array;
  private readonly routeDirs: Int32Array;
  private readonly valueBytes: Float64Array;
  private readonly inputValues: Int32Array;
  private readonly inputBytes: number;
  private readonly opOperandBegin: Int32Array;
  private readonly operandValue: Int32Array;
  private readonly opOutput: Int32Array;
  private readonly outputs: Int32Array;
  /** Per part of the cost table: bytes it reads of each operand (from `partNeedBegin`), writes, and touches in all. */
  private readonly partNeedBegin: Int32Array;
  private readonly partNeeds: Float64Array;
  private readonly partOutBytes: Float64Array;
  private readonly partTouched: Float64Array;

  // The state, all in one array so that it saves and restores with one copy:
  // ready[V * S] (when each value is in each space), devFree[D], busy[D], touched[D], used[D],
  // linkFree[2L], linkBusy[2L], memUse[S], then active energy and makespan.
  readonly state: Float64Array;
  readonly ready: Float64Array;
  readonly devFree: Float64Array;
  readonly busy: Float64Array;
  readonly touched: Float64Array;
  /** 1 where the mapping gives the device a part (only those draw idle power). */
  readonly used: Float64Array;
  readonly linkFree: Float64Array;
  readonly linkBusy: Float64Array;
  readonly memUse: Float64Array;
  private readonly tail: number;
  /** When each device and link direction is first free: 0, or the backlog of work queued ahead (backlog.ts). */
  readonly devStart: Float64Array;
  readonly linkStart: Float64Array;

  constructor(
    readonly bound: BoundWorkload,
    readonly system: System,
    readonly table: CostTable,
  ) {
    const spaces = (this.spaces = system.memorySpaces);
    const S = (this.S = spaces.length);
    const D = (this.D = system.devices.length);
    this.spaceOf = Int32Array.from(system.devices.map((d) => spaces.indexOf(d.memorySpace)));
    this.lat = new Float64Array(S * S);
    this.invBw = new Float64Array(S * S);
    this.routeBegin = new Int32Array(S * S + 1);
    const dirs: number[] = [];
    for (let a = 0; a < S; a++) {
      for (let b = 0; b < S; b++) {
        this.routeBegin[a * S + b] = dirs.length;
        if (a === b) continue;
        let from = spaces[a]!;
        for (const link of system.route(spaces[a]!, spaces[b]!)) {
          this.lat[a * S + b]! += link.latency;
          this.invBw[a * S + b]! += 1 / link.bandwidth;
          const l = system.links.indexOf(link);
          const forward = link.between[0] === from;
          dirs.push(2 * l + (forward ? 0 : 1));
          from = forward ? link.between[1] : link.between[0];
        }
      }
    }
    this.routeBegin[S * S] = dirs.length;
    this.routeDirs = Int32Array.from(dirs);
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
    this.opOperandBegin[n] = operands.length;
    this.operandValue = Int32Array.from(operands);
    this.opOutput = Int32Array.from(bound.ops.map((o) => o.output));
    this.outputs = Int32Array.from(bound.outputs);
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
    const L2 = 2 * system.links.length;
    const size = V * S + 4 * D + 2 * L2 + S + 2;
    this.state = new Float64Array(size);
    let at = 0;
    const take = (k: number): Float64Array => {
      const view = this.state.subarray(at, at + k);
      at += k;
      return view;
    };
    this.ready = take(V * S);
    this.devFree = take(D);
    this.busy = take(D);
    this.touched = take(D);
    this.used = take(D);
    this.linkFree = take(L2);
    this.linkBusy = take(L2);
    this.memUse = take(S);
    this.tail = at;
    this.devStart = new Float64Array(D);
    this.linkStart = new Float64Array(L2);
  }

  /** Active energy of the parts placed so far, joules. */
  get active(): number {
    return this.state[this.tail]!;
  }

  /** Latest finish of anything placed so far (before the results' copies home), seconds. */
  get makespan(): number {
    return this.state[this.tail + 1]!;
  }

  /** Start an evaluation: inputs on the host, devices and links free from their backlog on. */
  reset(): void {
    const st = this.state;
    // Plain loops: on arrays this small, TypedArray.fill's call costs more than the work.
    const readyEnd = this.ready.length;
    for (let x = 0; x < readyEnd; x++) st[x] = Infinity;
    for (let x = readyEnd; x < st.length; x++) st[x] = 0;
    const devFree = this.devFree;
    const devStart = this.devStart;
    for (let d = 0; d < devFree.length; d++) devFree[d] = devStart[d]!;
    const linkFree = this.linkFree;
    const linkStart = this.linkStart;
    for (let l = 0; l < linkFree.length; l++) linkFree[l] = linkStart[l]!;
    const inputs = this.inputValues;
    for (let x = 0; x < inputs.length; x++) this.ready[inputs[x]! * this.S] = 0;
    this.memUse[0] = this.inputBytes;
  }

  /** The earliest a copy from space s2 to s, ready at `r`, can start: when every link direction on its route is free. */
  private copyStart(r: number, s2: number, s: number): number {
    const pair = s2 * this.S + s;
    let start = r;
    for (let k = this.routeBegin[pair]!; k < this.routeBegin[pair + 1]!; k++) {
      const free = this.linkFree[this.routeDirs[k]!]!;
      if (free > start) start = free;
    }
    return start;
  }

  /** Occupy the route from s2 to s with a copy of `bytes` starting at `start`; returns its arrival. */
  private occupy(s2: number, s: number, bytes: number, start: number): number {
    const pair = s2 * this.S + s;
    const seconds = bytes * this.invBw[pair]!;
    for (let k = this.routeBegin[pair]!; k < this.routeBegin[pair + 1]!; k++) {
      const dir = this.routeDirs[k]!;
      this.linkFree[dir] = start + seconds;
      this.linkBusy[dir]! += seconds;
    }
    return start + this.lat[pair]! + seconds;
  }

  /** Bring `bytes` of value v to space s from wherever it arrives soonest; returns the arrival time. */
  private fetch(v: number, s: number, bytes: number, rec: Recorder | null): number {
    const S = this.S;
    let at = Infinity;
    let from = -1;
    let start = 0;
    for (let s2 = 0; s2 < S; s2++) {
      const r = this.ready[v * S + s2]!;
      if (r === Infinity || s2 === s) continue;
      const begin = this.copyStart(r, s2, s);
      const c = begin + this.lat[s2 * S + s]! + bytes * this.invBw[s2 * S + s]!;
      if (c < at) {
        at = c;
        from = s2;
        start = begin;
      }
    }
    if (from < 0) return Infinity;
    at = this.occupy(from, s, bytes, start);
    if (rec) rec.transfers.push({ value: v, from: this.spaces[from]!, to: this.spaces[s]!, bytes, start, finish: at });
    return at;
  }

  /** Place operator i with its choice c (index within the operator's choices). */
  place(i: number, c: number, rec: Recorder | null): void {
    const S = this.S;
    const t = this.table;
    const ready = this.ready;
    const memUse = this.memUse;
    const g = t.choiceBase[i]! + c;
    const pb = t.partBegin[g]!;
    const pc = t.partCount[g]!;
    const outV = this.opOutput[i]!;
    const ob = this.opOperandBegin[i]!;
    const oe = this.opOperandBegin[i + 1]!;
    if (t.settled !== undefined && t.settled[i] === 1) {
      // Computed before this schedule starts: the output is where it was made, from time 0.
      if (pc === 1) ready[outV * S + this.spaceOf[t.partDevice[pb]!]!] = 0;
      else ready[outV * S] = 0;
      return;
    }
    let active = this.state[this.tail]!;
    let makespan = this.state[this.tail + 1]!;
    let joined = 0;
    for (let p = pb; p < pb + pc; p++) {
      const d = t.partDevice[p]!;
      const s = this.spaceOf[d]!;
      let start = this.devFree[d]!;
      this.touched[d]! += this.partTouched[p]!;
      this.used[d] = 1;
      const nb = this.partNeedBegin[p]! - ob;
      for (let k = ob; k < oe; k++) {
        const v = this.operandValue[k]!;
        let at = ready[v * S + s]!;
        if (at === Infinity) {
          const need = this.partNeeds[nb + k]!;
          at = this.fetch(v, s, need, rec);
          memUse[s]! += need;
          if (need === this.valueBytes[v]!) ready[v * S + s] = at;
        }
        if (at > start) start = at;
      }
      const sec = t.partSeconds[p]!;
      let end = start + sec;
      this.devFree[d] = end;
      this.busy[d]! += sec;
      active += t.partJoules[p]!;
      if (rec) {
        const ch = t.choices[i]![c]!.parts[p - pb]!;
        rec.parts.push({ op: i, device: d, begin: ch.begin, end: ch.end, start, finish: end, seconds: sec, joules: t.partJoules[p]! });
      }
      if (end > makespan) makespan = end;
      const outBytes = this.partOutBytes[p]!;
      memUse[s]! += outBytes;
      if (pc === 1) {
        ready[outV * S + s] = end;
      } else {
        if (s !== 0) {
          // A split operator's parts join on the host: this part's rows go home first.
          const begun = this.copyStart(end, s, 0);
          const home = this.occupy(s, 0, outBytes, begun);
          if (rec) rec.transfers.push({ value: outV, from: this.spaces[s]!, to: HOST, bytes: outBytes, start: begun, finish: home });
          end = home;
        }
        if (end > joined) joined = end;
      }
    }
    if (pc > 1) {
      ready[outV * S] = joined;
      memUse[0]! += this.valueBytes[outV]!;
      if (joined > makespan) makespan = joined;
    }
    this.state[this.tail] = active;
    this.state[this.tail + 1] = makespan;
  }

  /** Copy the workload's results home (after every operator is placed); returns the makespan. */
  finishOutputs(rec: Recorder | null): number {
    const S = this.S;
    let makespan = this.makespan;
    for (let k = 0; k < this.outputs.length; k++) {
      const v = this.outputs[k]!;
      let at = this.ready[v * S]!;
      if (at === Infinity) {
        at = this.fetch(v, 0, this.valueBytes[v]!, rec);
        this.memUse[0]! += this.valueBytes[v]!;
      }
      if (at > makespan) makespan = at;
    }
    this.state[this.tail + 1] = makespan;
    return makespan;
  }

  /** The whole list schedule of `genome`; returns the makespan. */
  run(genome: Int32Array, rec: Recorder | null): number {
    this.reset();
    const n = this.opOutput.length;
    for (let i = 0; i < n; i++) this.place(i, genome[i]!, rec);
    return this.finishOutputs(rec);
  }
}
