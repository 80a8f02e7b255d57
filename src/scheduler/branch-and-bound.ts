// The exact best mapping of a space for one scalar objective (the planner's pick on predicted
// costs, the oracle's best on executed ones), by depth-first branch and bound over the operators
// in topological order, placing each on the same list
// schedule the evaluator runs and undoing it on the way back. A partial mapping is cut when a
// lower bound of its objective already reaches the best complete one: the partial makespan
// bounds the time (placing more operators never ends anything sooner), and the active energy so
// far plus the least each remaining operator can add bounds the energy (idle energy is >= 0).

import type { Evaluator } from './evaluate.js';

/** A scalar objective: time, energy, or their product. */
export type ScalarObjective = 'min-time' | 'min-energy' | 'min-edp';
export const SCALAR_OBJECTIVES: readonly ScalarObjective[] = ['min-time', 'min-energy', 'min-edp'];

export interface Optimum {
  /** The best mapping (a choice per operator); empty when nothing is feasible. */
  readonly genome: Int32Array;
  /** Its objective value, time and energy. */
  readonly value: number;
  readonly time: number;
  readonly energy: number;
  /** True when the search finished: the best of the whole space (within the tolerance). False when it hit `maxNodes`. */
  readonly exact: boolean;
  /** Partial mappings visited. */
  readonly nodes: number;
}

export interface SearchLimits {
  /** Partial mappings visited at most. @default 2e7 */
  readonly maxNodes?: number;
  /** Mappings to evaluate first (single-device mappings, a sampled front): a good first incumbent cuts early. */
  readonly seeds?: readonly Int32Array[];
  /**
   * Relative tolerance: a partial mapping is cut once its bound is within this share of the best
   * found, so the result is within it of the true best. Near-ties (splits between two devices of
   * nearly equal energy) would otherwise keep millions of partial mappings alive. @default 1e-4
   */
  readonly tolerance?: number;
}

/** The scalar a single-objective search minimises: time, energy, or their product (min-edp). */
export const objectiveValue = (o: ScalarObjective, time: number, energy: number): number =>
  o === 'min-time' ? time : o === 'min-energy' ? energy : time * energy;
/** What breaks ties: the other objective (as the policies do). */
const tieOf = (o: ScalarObjective, time: number, energy: number): number => (o === 'min-energy' ? time : o === 'min-time' ? energy : time);

/**
 * The best mapping for `objective`. `evaluator` must evaluate ['time', 'energy'] under the
 * constraints that apply. A stream's time is its period, which the partial makespan does not
 * bound, so a stream's time is not used to cut (the search is then exhaustive over the energy bound).
 */
export function branchAndBound(evaluator: Evaluator, objective: ScalarObjective, limits: SearchLimits = {}): Optimum {
  const table = evaluator.table;
  const schedule = evaluator.schedule;
  const n = table.choiceCount.length;
  const maxNodes = limits.maxNodes ?? 2e7;
  const keep = 1 - (limits.tolerance ?? 1e-4);
  const stream = evaluator.bound.workload.stream;
  const deadline = evaluator.constraints.deadline;
  const budget = evaluator.constraints.energyBudget;
  // Per operator: its choices' active energy and duration (slowest part), and the choices in the
  // order most likely to lead to a good mapping first.
  const joules: Float64Array[] = [];
  const seconds: Float64Array[] = [];
  for (let i = 0; i < n; i++) {
    const count = table.choiceCount[i]!;
    const j = new Float64Array(count);
    const s = new Float64Array(count);
    for (let c = 0; c < count; c++) {
      const g = table.choiceBase[i]! + c;
      for (let p = table.partBegin[g]!; p < table.partBegin[g]! + table.partCount[g]!; p++) {
        j[c]! += table.partJoules[p]!;
        if (table.partSeconds[p]! > s[c]!) s[c] = table.partSeconds[p]!;
      }
    }
    joules.push(j);
    seconds.push(s);
  }
  const order = joules.map((j, i) => {
    const s = seconds[i]!;
    return Int32Array.from(j.keys(), (c) => c).sort((a, b) => objectiveValue(objective, s[a]!, j[a]!) - objectiveValue(objective, s[b]!, j[b]!));
  });
  // The least active energy the operators from i on can add.
  const restJoules = new Float64Array(n + 1);
  for (let i = n - 1; i >= 0; i--) restJoules[i] = restJoules[i + 1]! + Math.min(...joules[i]!);
  // The most busy time the operators from i on can add to each device: a device already used
  // idles at least over the makespan so far less its busy time and that (idle energy is billed
  // to the devices a mapping uses).
  const D = schedule.D;
  const restBusy = new Float64Array((n + 1) * D);
  for (let i = n - 1; i >= 0; i--) {
    for (let d = 0; d < D; d++) {
      let most = 0;
      for (let c = 0; c < table.choiceCount[i]!; c++) {
        const g = table.choiceBase[i]! + c;
        for (let p = table.partBegin[g]!; p < table.partBegin[g]! + table.partCount[g]!; p++)
          if (table.partDevice[p] === d && table.partSeconds[p]! > most) most = table.partSeconds[p]!;
      }
      restBusy[i * D + d] = restBusy[(i + 1) * D + d]! + most;
    }
  }
  const idleWatts = Float64Array.from(evaluator.system.devices, (x) => x.power.idleWatts);
  /** A lower bound of the idle energy once operators [0, i) are placed. */
  const idleBound = (i: number): number => {
    if (stream) return 0;
    const t = schedule.makespan;
    let idle = 0;
    for (let d = 0; d < D; d++) if (schedule.used[d] === 1) idle += idleWatts[d]! * Math.max(0, t - schedule.busy[d]! - restBusy[i * D + d]!);
    return idle;
  };
  // The shortest the chain from each operator to the end can take, and what each operator reads.
  const bound = evaluator.bound;
  const S = schedule.S;
  const operands = bound.ops.map((op) => Int32Array.from(op.operands));
  const producers = bound.ops.map((op) => op.operands.reduce((m, v) => Math.max(m, bound.values[v]!.producer), -1));
  const tail = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let after = 0;
    for (let j = i + 1; j < n; j++) if (bound.ops[j]!.operands.some((v) => bound.values[v]!.producer === i) && tail[j]! > after) after = tail[j]!;
    tail[i] = Math.min(...seconds[i]!) + after;
  }
  const minSeconds = Float64Array.from(seconds, (x) => Math.min(...x));
  const ready = schedule.ready;
  /** A lower bound of the makespan once operators [0, i) are placed. */
  const timeBound = (i: number): number => {
    let t = schedule.makespan;
    for (let j = i; j < n; j++) {
      if (producers[j]! >= i) continue; // covered by the chain of a producer still to place
      let earliest = 0;
      for (const v of operands[j]!) {
        let at = Infinity;
        for (let s = 0; s < S; s++) if (ready[v * S + s]! < at) at = ready[v * S + s]!;
        if (at > earliest) earliest = at;
      }
      if (earliest + tail[j]! > t) t = earliest + tail[j]!;
    }
    return t;
  };

  const stateLen = schedule.state.length;
  const saved = new Float64Array((n + 1) * stateLen);
  const genome = new Int32Array(n);
  let best = new Int32Array(0);
  let bestValue = Infinity;
  let bestTie = Infinity;
  let bestTime = Infinity;
  let bestEnergy = Infinity;
  let nodes = 0;
  let exact = true;
  const out = new Float64Array(2);

  const visit = (i: number): void => {
    if (nodes >= maxNodes) {
      exact = false;
      return;
    }
    nodes++;
    if (i === n) {
      const makespan = schedule.finishOutputs(null);
      if (!evaluator.finish(makespan, out)) return;
      const v = objectiveValue(objective, out[0]!, out[1]!);
      const tie = tieOf(objective, out[0]!, out[1]!);
      if (v < bestValue || (v === bestValue && tie < bestTie)) {
        bestValue = v;
        bestTie = tie;
        bestTime = out[0]!;
        bestEnergy = out[1]!;
        best = Int32Array.from(genome);
      }
      return;
    }
    saved.set(schedule.state, i * stateLen);
    // Before placing a choice, a cheaper bound: its parts cannot start before their devices are
    // free or its operands exist, nor can the chain after it be shorter than its fastest.
    let operandsAt = 0;
    for (const v of operands[i]!) {
      let at = Infinity;
      for (let s2 = 0; s2 < S; s2++) if (ready[v * S + s2]! < at) at = ready[v * S + s2]!;
      if (at > operandsAt) operandsAt = at;
    }
    const after = tail[i]! - minSeconds[i]!;
    const activeNow = schedule.active;
    for (const c of order[i]!) {
      const eQuick = activeNow + joules[i]![c]! + restJoules[i + 1]!;
      let tQuick = 0;
      // An operator already computed (re-planning a run's rest) takes no device time: no quick bound.
      if (!stream && (objective !== 'min-energy' || deadline !== undefined) && table.settled?.[i] !== 1) {
        const g = table.choiceBase[i]! + c;
        for (let p = table.partBegin[g]!; p < table.partBegin[g]! + table.partCount[g]!; p++) {
          const f = Math.max(schedule.devFree[table.partDevice[p]!]!, operandsAt) + table.partSeconds[p]!;
          if (f > tQuick) tQuick = f;
        }
        tQuick += after;
      }
      if (
        objectiveValue(objective, tQuick, eQuick) > bestValue * keep ||
        (deadline !== undefined && tQuick > deadline) ||
        (budget !== undefined && eQuick > budget)
      )
        continue;
      schedule.place(i, c, null);
      genome[i] = c;
      if (evaluator.fits()) {
        const t = stream || (objective === 'min-energy' && deadline === undefined) ? 0 : timeBound(i + 1);
        const e = schedule.active + restJoules[i + 1]! + (objective === 'min-time' ? 0 : idleBound(i + 1));
        const lower = objectiveValue(objective, t, e);
        const cut = lower > bestValue * keep || (deadline !== undefined && !stream && t > deadline) || (budget !== undefined && e > budget);
        if (!cut) visit(i + 1);
      }
      schedule.state.set(saved.subarray(i * stateLen, (i + 1) * stateLen));
      if (!exact) return;
    }
  };
  // The seeds first: the best of them is the incumbent the search must beat.
  for (const seed of limits.seeds ?? []) {
    if (seed.length !== n) continue;
    const makespan = schedule.run(seed, null);
    if (!evaluator.finish(makespan, out)) continue;
    const v = objectiveValue(objective, out[0]!, out[1]!);
    const tie = tieOf(objective, out[0]!, out[1]!);
    if (v < bestValue || (v === bestValue && tie < bestTie)) {
      bestValue = v;
      bestTie = tie;
      bestTime = out[0]!;
      bestEnergy = out[1]!;
      best = Int32Array.from(seed);
    }
  }
  schedule.reset();
  visit(0);
  return { genome: best, value: bestValue, time: bestTime, energy: bestEnergy, exact, nodes };
}
