// The drift rule of pickMapping (robust.ts): a real device's speed moves between its probe and the
// run, a simulator's does not. A split that hands a slow simulated device a few per cent of an
// operator is predicted a little faster than the CPU alone and runs far slower whenever the CPU is
// faster than probed: it must not be picked, unless this machine's calibration measured its CPU
// steady. A split worth more than the drift is kept, and a system without a real device is
// priced as before.

import { describe, expect, it } from 'vitest';
import { buildSystem, type System } from '../../src/devices/system.js';
import { buildChoices } from '../../src/scheduler/candidates.js';
import type { OperatorEstimate, PlanningCosts } from '../../src/scheduler/costs.js';
import type { FrontProblem } from '../../src/scheduler/front.js';
import { pickMapping } from '../../src/scheduler/pick.js';
import { REAL_SPEED_DRIFT } from '../../src/scheduler/robust.js';
import { CostTable } from '../../src/scheduler/space.js';
import { bindWorkload, type BoundOp } from '../../src/workloads/bind.js';
import { workload } from '../../src/workloads/library.js';
import { cpuCgraSystem, smallGraph } from './schedule-fixtures.js';

const withCpu = cpuCgraSystem();
const simulatedOnly = buildSystem({
  name: 'gpu-cgra',
  devices: [
    { name: 'gpu', backend: 'gpu-sim' },
    { name: 'cgra', backend: 'cgra-sim' },
  ],
  links: [{ between: ['host', 'gpu'], profile: 'pcie-gen5-x16' }],
});

/** One SpMM whose whole-operator seconds on the two devices are `seconds`, linear in the entries a part takes, probed to +-1%. */
function problemOf(system: System, seconds: readonly [number, number]): { problem: FrontProblem; costs: PlanningCosts } {
  const graph = smallGraph();
  const bound = bindWorkload(workload('spmm'), graph);
  const share = (b: number, e: number): number => (graph.rowStart(e) - graph.rowStart(b)) / graph.nnz;
  const costs: PlanningCosts = {
    cost: (_op, d, b, e) => ({ seconds: seconds[d]! * share(b, e), joules: seconds[d]! * share(b, e) }),
    whole: (_op: BoundOp, d: number): OperatorEstimate => ({
      device: system.devices[d]!.name,
      seconds: seconds[d]!,
      joules: seconds[d]!,
      basis: 'probed',
      uncertainty: 0.01,
      state: 'modelled',
    }),
  };
  const choices = buildChoices(bound, system, [0, 1], {}, (_op, d) => seconds[d]!);
  const table = new CostTable(choices, bound.ops, costs);
  return { problem: { bound, system, choices, table, objectives: ['time', 'energy'], constraints: {} }, costs };
}

const devicesOf = (problem: FrontProblem, genome: Int32Array): string[] =>
  problem.choices[0]![genome[0]!]!.parts.map((p) => problem.system.devices[p.device]!.name);

describe('the drift rule', () => {
  it('keeps the CPU alone over a split that gives a 30x slower simulator the last 3%', () => {
    // Balanced, the CGRA takes 100 / 3100 of the rows: 3.2% faster than the CPU alone as probed.
    const { problem, costs } = problemOf(withCpu, [100e-6, 3000e-6]);
    const picked = pickMapping(problem, 'min-time', { costs, model: costs })!;
    expect(devicesOf(problem, picked.genome)).toEqual(['cpu']);
    // It says why: the split was predicted better as probed and is worse on the mean over the drift.
    expect(picked.simplified?.exposure?.drift).toBe(REAL_SPEED_DRIFT);
    expect(picked.simplified!.exposure!.gain).toBeGreaterThan(0);
    expect(devicesOf(problem, picked.simplified!.over)).toEqual(['cpu', 'cgra']);
  });

  it('weighs the drift calibration measured on this machine: a steady CPU keeps the split', () => {
    // The same 3% split, on a machine whose CPU moved 2% between moments (a dedicated server).
    const { problem, costs } = problemOf(withCpu, [100e-6, 3000e-6]);
    const steady: PlanningCosts = { ...costs, speedDrift: (d) => (problem.system.devices[d]!.simulated ? undefined : 0.02) };
    const picked = pickMapping(problem, 'min-time', { costs: steady, model: steady })!;
    expect(devicesOf(problem, picked.genome)).toEqual(['cpu', 'cgra']);
    // A shakier machine's figure does not tighten the rule beyond the 25% it assumes: the split goes as before.
    const shaky: PlanningCosts = { ...costs, speedDrift: (d) => (problem.system.devices[d]!.simulated ? undefined : 0.6) };
    const shaken = pickMapping(problem, 'min-time', { costs: shaky, model: shaky })!;
    expect(devicesOf(problem, shaken.genome)).toEqual(['cpu']);
    expect(shaken.simplified?.exposure?.drift).toBe(REAL_SPEED_DRIFT);
  });

  it('keeps a split worth more than the drift', () => {
    // A CGRA 1.5x slower than the CPU: balanced at about 40%, 40% faster however the CPU moves.
    const { problem, costs } = problemOf(withCpu, [100e-6, 150e-6]);
    const picked = pickMapping(problem, 'min-time', { costs, model: costs })!;
    expect(devicesOf(problem, picked.genome)).toEqual(['cpu', 'cgra']);
    const cgra = problem.choices[0]![picked.genome[0]!]!.parts.find((p) => problem.system.devices[p.device]!.name === 'cgra')!;
    expect(cgra.fraction).toBeGreaterThan(0.3);
  });

  it('says when it kept the same split at other shares, not a simpler mapping', () => {
    // A CGRA 20x slower than the CPU: balanced at about 5%, but a CPU 25% faster than probed then
    // waits on the CGRA, so the mean over the drift favours giving the CGRA a little less (4%).
    const { problem, costs } = problemOf(withCpu, [100e-6, 2000e-6]);
    const picked = pickMapping(problem, 'min-time', { costs, model: costs })!;
    expect(devicesOf(problem, picked.genome)).toEqual(['cpu', 'cgra']);
    expect(devicesOf(problem, picked.simplified!.over)).toEqual(['cpu', 'cgra']);
    const cpuShare = (g: Int32Array): number => problem.choices[0]![g[0]!]!.parts[0]!.fraction;
    expect(cpuShare(picked.genome)).toBeGreaterThan(cpuShare(picked.simplified!.over));
    // Not "fewer splits": both have one split of two parts (the explanation reads this kind).
    expect(picked.simplified!.kind).toBe('other shares');
  });

  // A split between two devices of like speed loses by its own share of the drift at most: its
  // shares stay where the probes balance them. On the even mean over the drift a CPU and GPU split
  // balanced at 52/48 went to 44/56 and ran 5.7% slower, as the model had said it would.
  it('keeps the shares the probes balance where the CPU is not much slower than the other device', () => {
    const { problem, costs } = problemOf(withCpu, [100e-6, 50e-6]);
    const picked = pickMapping(problem, 'min-time', { costs, model: costs })!;
    expect(devicesOf(problem, picked.genome)).toEqual(['cpu', 'cgra']);
    expect(picked.simplified).toBeUndefined();
    // The balance point, within the choices' grid: the CPU a third of the work.
    const cpuShare = problem.choices[0]![picked.genome[0]!]!.parts[0]!.fraction;
    expect(Math.abs(cpuShare - 1 / 3)).toBeLessThan(0.03);
  });

  it('changes nothing where every device is simulated', () => {
    const { problem, costs } = problemOf(simulatedOnly, [100e-6, 3000e-6]);
    const picked = pickMapping(problem, 'min-time', { costs, model: costs })!;
    expect(devicesOf(problem, picked.genome)).toEqual(['gpu', 'cgra']);
    expect(picked.simplified).toBeUndefined();
  });
});
