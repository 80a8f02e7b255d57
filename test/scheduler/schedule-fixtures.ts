// Deterministic inputs for the scheduler tests: systems made only of simulated devices, the
// spec-derived (uncalibrated) cost model, small generated graphs, hand-made workloads and a cost
// source with fixed figures, so no test depends on this machine's calibration or CPU timings
// (cpuCgraSystem alone holds the real CPU, for the tests of what is specific to a measured device).

import { CostModel } from '../../src/cost/model.js';
import type { CsrMatrix } from '../../src/data/csr.js';
import { buildSystem, type System } from '../../src/devices/system.js';
import { generate } from '../../src/generators/index.js';
import type { Choice, CostSource } from '../../src/scheduler/space.js';
import { bindWorkload, type BoundOp, type BoundWorkload } from '../../src/workloads/bind.js';
import { defineWorkload, type Workload } from '../../src/workloads/definition.js';

/** A simulated H100 on PCIe 5 (memory of its own) and a simulated CGRA on host memory. */
export function twoDeviceSystem(gpu: { memoryBytes?: number } = {}): System {
  return buildSystem({
    name: 't',
    devices: [
      { name: 'gpu', backend: 'gpu-sim', ...gpu },
      { name: 'cgra', backend: 'cgra-sim' },
    ],
    links: [{ between: ['host', 'gpu'], profile: 'pcie-gen5-x16' }],
  });
}

/** This machine's real CPU beside a simulated CGRA (for what is specific to a measured device). */
export function cpuCgraSystem(): System {
  return buildSystem({
    name: 'cpu-cgra',
    devices: [
      { name: 'cpu', backend: 'cpu' },
      { name: 'cgra', backend: 'cgra-sim' },
    ],
  });
}

/** Two simulated GPUs of different profiles and a CGRA: enough capable devices for three-way splits. */
export function threeDeviceSystem(): System {
  return buildSystem({
    name: 't3',
    devices: [
      { name: 'gpu', backend: 'gpu-sim' },
      { name: 'gpu2', backend: 'gpu-sim', profile: 'a100-80gb' },
      { name: 'cgra', backend: 'cgra-sim' },
    ],
    links: [
      { between: ['host', 'gpu'], profile: 'pcie-gen5-x16' },
      { between: ['host', 'gpu2'], profile: 'pcie-gen4-x16' },
    ],
  });
}

/** The uncalibrated model: predictions from the device specs only. */
export function specModel(system: System): CostModel {
  return new CostModel(system, undefined, 'scheduler tests use spec-derived predictions');
}

/** A power-law graph of 512 vertices and about 9.5k entries. */
export function smallGraph(seed = 1): CsrMatrix {
  return generate({ kind: 'kronecker', scale: 9, seed });
}

/** A road-like 30 x 30 grid: another input of another shape. */
export function gridInput(): CsrMatrix {
  return generate({ kind: 'grid', rows: 30, cols: 30, seed: 1 });
}

/** Y = A X (sparse), then H = relu(Y): the smallest chain with a splittable and an element-wise operator. */
export const chainWorkload: Workload = defineWorkload({
  name: 'chain',
  params: { k: 8 },
  inputs: {
    A: { kind: 'sparse' },
    X: { kind: 'dense', rows: 'A.cols', cols: '$k', generate: 'random' },
  },
  operators: [
    { id: 'Y', kind: 'spmm', inputs: ['A', 'X'] },
    { id: 'H', kind: 'relu', inputs: ['Y'] },
  ],
  outputs: ['H'],
});

export function bindChain(a: CsrMatrix = smallGraph(), workload: Workload = chainWorkload): BoundWorkload {
  return bindWorkload(workload, a);
}

/**
 * Fixed costs: `seconds[opId][device]` for the whole operator, scaled by the share of units a
 * part computes (an operator of one unit or fewer is always whole). Counts its calls.
 */
export class FixedCosts implements CostSource {
  calls = 0;
  constructor(
    readonly seconds: Readonly<Record<string, readonly number[]>>,
    readonly joules: Readonly<Record<string, readonly number[]>> = seconds,
  ) {}

  cost(op: BoundOp, device: number, begin: number, end: number): { seconds: number; joules: number } {
    this.calls++;
    const s = this.seconds[op.id]?.[device];
    const j = this.joules[op.id]?.[device];
    if (s === undefined || j === undefined) throw new Error(`FixedCosts: no cost for ${op.id} on device ${device}`);
    const share = op.units > 1 ? (end - begin) / op.units : 1;
    return { seconds: s * share, joules: j * share };
  }
}

/** The same figure for every operator of `bound` on each device. */
export function uniformCosts(bound: BoundWorkload, perDevice: readonly number[], joules?: readonly number[]): FixedCosts {
  const s: Record<string, readonly number[]> = {};
  const j: Record<string, readonly number[]> = {};
  for (const op of bound.ops) {
    s[op.id] = perDevice;
    j[op.id] = joules ?? perDevice;
  }
  return new FixedCosts(s, j);
}

/** Index of the choice labelled `label` for operator `i`; throws when there is none. */
export function choiceIndex(choices: readonly (readonly Choice[])[], i: number, label: string): number {
  const c = choices[i]!.findIndex((ch) => ch.label === label);
  if (c < 0) throw new Error(`no choice ${JSON.stringify(label)} for operator ${i}: ${choices[i]!.map((ch) => ch.label).join(' | ')}`);
  return c;
}

/** A genome from one label per operator (in operator order). */
export function genomeOf(choices: readonly (readonly Choice[])[], labels: readonly string[]): Int32Array {
  return Int32Array.from(labels.map((l, i) => choiceIndex(choices, i, l)));
}

/** |a - b| within `rel` of b (for sums of the same terms taken in another order). */
export function near(a: number, b: number, rel = 1e-12): boolean {
  return Math.abs(a - b) <= rel * Math.max(Math.abs(a), Math.abs(b));
}
