// Inputs for the executor tests: a system of the host CPU (real, measured) beside a simulated GPU
// and CGRA, the spec-derived model, a small power-law graph, helpers to force a mapping onto a
// plan, and the comparison of a run's outputs with the TypeScript reference.

import { expect } from 'vitest';
import { CostModel } from '../../src/cost/model.js';
import { CsrMatrix } from '../../src/data/csr.js';
import { DenseMatrix, type Precision } from '../../src/data/dense.js';
import { buildSystem, type System } from '../../src/devices/system.js';
import type { RunResult } from '../../src/executor/run.js';
import { generate } from '../../src/generators/index.js';
import type { Policy } from '../../src/scheduler/policy.js';
import { type Plan, schedule } from '../../src/scheduler/schedule.js';
import type { Choice } from '../../src/scheduler/space.js';
import { referenceValues, type Value } from '../../src/workloads/reference.js';
import type { Workload } from '../../src/workloads/definition.js';

export const WORKLOADS = ['spmm', 'bfs', 'msbfs', 'gcn', 'sage', 'pagerank'] as const;

/** The host CPU, a simulated H100 on PCIe 5 and a simulated CGRA on host memory. */
export function mixedSystem(): System {
  return buildSystem({
    name: 'exec',
    devices: [
      { name: 'cpu', backend: 'cpu' },
      { name: 'gpu', backend: 'gpu-sim' },
      { name: 'cgra', backend: 'cgra-sim' },
    ],
    links: [{ between: ['host', 'gpu'], profile: 'pcie-gen5-x16' }],
  });
}

/** A power-law graph of 512 vertices (Kronecker, scale 9). */
export function smallGraph(seed = 1): CsrMatrix {
  return generate({ kind: 'kronecker', scale: 9, seed });
}

export { confidentModel } from '../support/confident-calibration.js';

/** One system, model and graph shared by the plans of a test file. */
export class Planner {
  readonly system: System;
  readonly model: CostModel;
  readonly graph: CsrMatrix;

  constructor(system: System = mixedSystem(), graph: CsrMatrix = smallGraph(), model?: CostModel) {
    this.system = system;
    this.model = model ?? new CostModel(system);
    this.graph = graph;
  }

  /** Plans from the model alone (no probes): the executor's tests must not depend on this machine's CPU timings. */
  plan(workload: string | Workload, policy: Policy = 'min-time', precision?: Precision): Promise<Plan> {
    return schedule(workload, this.graph, { system: this.system, model: this.model, policy, probe: false, ...(precision ? { precision } : {}) });
  }
}

/** The same plan with another mapping (its `predicted` figures still describe the old one). */
export function withGenome(plan: Plan, genome: Int32Array): Plan {
  return { ...plan, chosen: { ...plan.chosen, genome } };
}

/** Index of the device called `name` in the plan's system. */
export function deviceIndex(plan: Plan, name: string): number {
  const i = plan.problem.system.devices.findIndex((d) => d.name === name);
  if (i < 0) throw new Error(`no device ${name}`);
  return i;
}

/** The choice of operator `i` that runs it whole on `device`; throws when the device cannot. */
export function wholeOn(plan: Plan, i: number, device: string): number {
  const d = deviceIndex(plan, device);
  const c = plan.problem.choices[i]!.findIndex((ch) => ch.parts.length === 1 && ch.parts[0]!.device === d);
  if (c < 0) throw new Error(`${plan.problem.bound.ops[i]!.id} cannot run whole on ${device}`);
  return c;
}

/** Every operator whole on one device. */
export function allOn(plan: Plan, device: string): Int32Array {
  return Int32Array.from(plan.problem.bound.ops, (_, i) => wholeOn(plan, i, device));
}

/**
 * For every operator the widest split it has, up to `ways` parts: the first (or, with `last`,
 * the last) choice of that many parts, else of fewer.
 */
export function widestSplit(plan: Plan, ways: number, last = false): Int32Array {
  return Int32Array.from(plan.problem.choices, (cs: readonly Choice[]) => {
    for (let w = ways; w >= 1; w--) {
      const idx = cs.flatMap((c, j) => (c.parts.length === w ? [j] : []));
      if (idx.length > 0) return last ? idx[idx.length - 1]! : idx[0]!;
    }
    throw new Error('an operator without choices');
  });
}

/** Parts the run of `genome` has: one piece each. */
export function pieceCount(plan: Plan, genome: Int32Array = plan.chosen.genome): number {
  return plan.problem.choices.reduce((s, cs, i) => s + cs[genome[i]!]!.parts.length, 0);
}

/** Expect `actual` to equal the reference value `expected`: exact for integers and patterns, to a tolerance for floats. */
export function expectSameValue(actual: Value | undefined, expected: Value, what: string): void {
  if (expected instanceof Int32Array) {
    expect(actual, `${what}: depths`).toBeInstanceOf(Int32Array);
    const a = actual as Int32Array;
    expect(a.length, `${what}: length`).toBe(expected.length);
    const first = a.findIndex((v, i) => v !== expected[i]);
    expect(first, `${what}: first differing depth (${first >= 0 ? `${a[first]} vs ${expected[first]}` : ''})`).toBe(-1);
    return;
  }
  if (expected instanceof DenseMatrix) {
    expect(actual, `${what}: dense`).toBeInstanceOf(DenseMatrix);
    const a = actual as DenseMatrix;
    expect([a.rows, a.cols], `${what}: shape`).toEqual([expected.rows, expected.cols]);
    expect(a.data.constructor, `${what}: precision`).toBe(expected.data.constructor);
    expectClose(a.data, expected.data, expected.data instanceof Float32Array ? 1e-4 : 1e-10, what);
    return;
  }
  expect(actual, `${what}: sparse`).toBeInstanceOf(CsrMatrix);
  const a = actual as CsrMatrix;
  expect([a.rows, a.cols], `${what}: shape`).toEqual([expected.rows, expected.cols]);
  expect(Array.from(a.rowPtr, Number), `${what}: rowPtr`).toEqual(Array.from(expected.rowPtr, Number));
  expect(Array.from(a.colIdx), `${what}: colIdx`).toEqual(Array.from(expected.colIdx));
  if (expected.values) {
    expect(a.values, `${what}: values`).toBeDefined();
    expectClose(a.values!, expected.values, expected.values instanceof Float32Array ? 1e-4 : 1e-10, what);
  }
}

/** |a - b| <= rel * (1 + max|b|) element by element. */
function expectClose(a: ArrayLike<number>, b: ArrayLike<number>, rel: number, what: string): void {
  expect(a.length, `${what}: length`).toBe(b.length);
  let scale = 0;
  for (let i = 0; i < b.length; i++) scale = Math.max(scale, Math.abs(b[i]!));
  const tol = rel * (1 + scale);
  let worst = -1;
  let worstError = 0;
  for (let i = 0; i < b.length; i++) {
    const e = Math.abs(a[i]! - b[i]!);
    if (Number.isNaN(e)) {
      worst = i;
      worstError = NaN;
      break;
    }
    if (e > worstError) {
      worst = i;
      worstError = e;
    }
  }
  expect(worstError, `${what}: worst error at ${worst} (${a[worst]} vs ${b[worst]}), tolerance ${tol}`).toBeLessThanOrEqual(tol);
}

/** Every output of the run equals the reference of the plan's bound workload. */
export function expectReferenceOutputs(plan: Plan, result: RunResult): void {
  const ref = referenceValues(plan.problem.bound);
  const names = plan.problem.bound.outputs.map((v) => plan.problem.bound.values[v]!.name);
  expect(Object.keys(result.outputs).sort()).toEqual([...names].sort());
  for (const v of plan.problem.bound.outputs) {
    const name = plan.problem.bound.values[v]!.name;
    expectSameValue(result.outputs[name], ref[v]!, `${plan.workload} ${name}`);
  }
}
