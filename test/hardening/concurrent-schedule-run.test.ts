// 64 schedule() + runPlan() calls at once in one process, each on its own input, give exactly
// the plans and outputs that the same calls give one by one: no call sees another's buffers,
// model state or result. Afterwards no native kernel call is left alive.

import { expect, it } from 'vitest';
import { CsrMatrix } from '../../src/data/csr.js';
import { DenseMatrix } from '../../src/data/dense.js';
import { runPlan } from '../../src/executor/run.js';
import { nativeAddon } from '../../src/native/addon.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { CostModel } from '../../src/cost/model.js';
import type { Value } from '../../src/workloads/reference.js';
import { mixedSystem, smallGraph, WORKLOADS } from '../executor/executor-fixtures.js';

const JOBS = 64;
const system = mixedSystem();

interface Outcome {
  label: string;
  genome: number[];
  outputs: Record<string, number[]>;
}

/** Flatten a value to its numbers (exact comparison: the same plan on the same data is deterministic). */
function numbers(v: Value): number[] {
  if (v instanceof DenseMatrix) return Array.from(v.data);
  if (v instanceof CsrMatrix) return [...Array.from(v.rowPtr, Number), ...Array.from(v.colIdx), ...Array.from(v.values ?? [])];
  return Array.from(v as Int32Array);
}

async function job(i: number): Promise<Outcome> {
  const name = WORKLOADS[i % WORKLOADS.length]!;
  // Its own graph (seed) and its own model: a model learns from observations, and sharing one
  // would make the order of the calls part of the result. The model alone plans (no probes): a
  // probe times the CPU, and timings are not the same from one call to the next.
  const plan = await schedule(name, smallGraph(1 + i), { system, model: new CostModel(system), seed: 1 + (i % 5), probe: false });
  const run = await runPlan(plan, { replan: false });
  const outputs: Record<string, number[]> = {};
  for (const [k, v] of Object.entries(run.outputs)) outputs[k] = numbers(v);
  return { label: plan.chosen.label, genome: Array.from(plan.chosen.genome), outputs };
}

it(`${JOBS} concurrent schedule() + runPlan() calls equal the same calls made one by one`, async () => {
  const sequential: Outcome[] = [];
  for (let i = 0; i < JOBS; i++) sequential.push(await job(i));
  const concurrent = await Promise.all(Array.from({ length: JOBS }, (_, i) => job(i)));
  for (let i = 0; i < JOBS; i++) {
    expect(concurrent[i]!.label, `job ${i}`).toBe(sequential[i]!.label);
    expect(concurrent[i]!.genome, `job ${i}`).toEqual(sequential[i]!.genome);
    for (const [k, v] of Object.entries(sequential[i]!.outputs)) {
      const got = concurrent[i]!.outputs[k]!;
      expect(got.length, `job ${i} ${k}`).toBe(v.length);
      const first = got.findIndex((x, j) => !Object.is(x, v[j]));
      expect(first, `job ${i} (${WORKLOADS[i % WORKLOADS.length]}) output ${k}: first difference`).toBe(-1);
    }
  }
  // The plans spread over the devices, so native CPU kernels and both simulators ran side by side.
  const devices = new Set(sequential.flatMap((o) => o.label.match(/\b(cpu|gpu|cgra)\b/g) ?? []));
  expect(devices.size).toBeGreaterThanOrEqual(2);
  expect(nativeAddon().liveWorkers()).toBe(0);
}, 300_000);
