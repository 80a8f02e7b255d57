// The oracle's search: the exact best mapping of its space for one objective, by depth-first
// branch and bound over the operators in topological order, placing each on the same list
// schedule the evaluator runs and undoing it on the way back. A partial mapping is cut when a
// lower bound of its objective already reaches the best complete one: the partial makespan
// bounds the time (placing more operators never ends anything sooner), and the active energy so
// far plus the least each remaining operator can add bounds the energy (idle energy is >= 0).

import type { Evaluator } from '../scheduler/evaluate.js';

export type OracleObjective = 'min-time' | 'min-energy' | 'min-edp';
export const ORACLE_OBJECTIVES: readonly OracleObjective[] = ['min-time', 'min-energy', 'min-edp'];

export interface Optimum {
  /** The best mapping (choice per operator of the oracle's space); empty when nothing is feasible. */
  readonly genome: Int32Array;
  /** Its objective value, time and energy. */
  readonly value: number;
  readonly time: number;
  readonly energy: number;
  /** True when the search finished: the best of the whole space. False when it hit `maxNodes`. */
  readonly exact: boolean;
  /** Partial mappings visited. */
  readonly nodes: number;
}

export interface SearchLimits {
  /** Partial mappings visited at most. @default 2e7 */
  readonly maxNodes?: number;
}

const valueOf = (o: OracleObjective, time: number, energy: number): number => (o === 'min-time' ? time : o === 'min-energy' ? energy : time * energy);
/** What breaks ties: the other objective (as the policies do). */
const tieOf = (o: OracleObjective, time: number, energy: number): number => (o === 'min-energy' ? time : o === 'min-time' ? energy : time);

/**
 * The best mapping for `objective`. `evaluator` must evaluate ['time', 'energy'] under the
 * constraints that apply. A stream's time is its period, which the partial makespan does not
 * bound, so a stream's time is not used to cut (the search is then exhaustive over the energy bound).
 */
export function branchAndBound(evaluator: Evaluator, objective: OracleObjective, limits: SearchLimits = {}): Optimum {
  const table = evaluator.table;
  const schedule = evaluator.schedule;
  const n = table.choiceCount.length;
  const maxNodes = limits.maxNodes ?? 2e7;
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
    return Int32Array.from(j.keys(), (c) => c).sort((a, b) => valueOf(objective, s[a]!, j[a]!) - valueOf(objective, s[b]!, j[b]!));
  });
  // The least active energy the operators from i on can add.
  const restJoules = new Float64Array(n + 1);
  for (let i = n - 1; i >= 0; i--) restJoules[i] = restJoules[i + 1]! + Math.min(...joules[i]!);

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
      const v = valueOf(objective, out[0]!, out[1]!);
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
    for (const c of order[i]!) {
      schedule.place(i, c, null);
      genome[i] = c;
      if (evaluator.fits()) {
        const timeBound = stream ? 0 : schedule.makespan;
        const energyBound = schedule.active + restJoules[i + 1]!;
        const bound = valueOf(objective, timeBound, energyBound);
        const cut = bound > bestValue || (deadline !== undefined && !stream && timeBound > deadline) || (budget !== undefined && energyBound > budget);
        if (!cut) visit(i + 1);
      }
      schedule.state.set(saved.subarray(i * stateLen, (i + 1) * stateLen));
      if (!exact) return;
    }
  };
  schedule.reset();
  visit(0);
  return { genome: best, value: bestValue, time: bestTime, energy: bestEnergy, exact, nodes };
}
