// A yardstick for one-operator plans on simulated devices: every candidate choice of the
// operator priced by what its parts take when run (simulators are exact and deterministic), the
// whole mapping then composed by the planner's own evaluator (copies and what runs beside it
// included). `devices` may stand in for the plan's own (the inner simulator of a device wrapped
// to come out slow), so the yardstick is never what the planner saw.

import type { Device } from '../../src/devices/device.js';
import { runPiece } from '../../src/executor/piece.js';
import { objectiveValue, type ScalarObjective } from '../../src/scheduler/branch-and-bound.js';
import { Evaluator } from '../../src/scheduler/evaluate.js';
import type { Plan } from '../../src/scheduler/schedule.js';
import { type CostSource, CostTable } from '../../src/scheduler/space.js';
import { referenceValues } from '../../src/workloads/reference.js';

export interface ExactPrices {
  /** The objective's value of choice `c` by what its parts took (Infinity where it was not run or does not fit). */
  value(c: number): number;
  /** The choice with the least value. */
  best: number;
}

/** Runs the parts of `only` (every choice when absent) of the plan's one operator and prices them. */
export async function exactPrices(plan: Plan, objective: ScalarObjective, devices: readonly Device[], only?: readonly number[]): Promise<ExactPrices> {
  const { bound, choices, constraints, system } = plan.problem;
  const op = bound.ops[0]!;
  const values = referenceValues(bound);
  const operands = op.operands.map((v) => values[v]!);
  const executed = new Map<string, { seconds: number; joules: number }>();
  const run = only ?? choices[0]!.map((_, c) => c);
  for (const c of run) {
    for (const p of choices[0]![c]!.parts) {
      const key = `${p.device}/${p.begin}/${p.end}`;
      if (executed.has(key)) continue;
      const r = await runPiece(bound, op, devices[p.device]!, operands, p.begin, p.end);
      executed.set(key, { seconds: r.seconds, joules: r.joules });
    }
  }
  // Choices not run are priced out of reach (the table still asks for every part).
  const truth: CostSource = { cost: (_o, d, b, e) => executed.get(`${d}/${b}/${e}`) ?? { seconds: Infinity, joules: Infinity } };
  const evaluator = new Evaluator(bound, system, new CostTable(choices, bound.ops, truth), ['time', 'energy'], constraints);
  const out = new Float64Array(2);
  const value = (c: number): number => (evaluator.evaluate(Int32Array.of(c), out) ? objectiveValue(objective, out[0]!, out[1]!) : Infinity);
  let best = run[0]!;
  for (const c of run) if (value(c) < value(best)) best = c;
  return { value, best };
}
