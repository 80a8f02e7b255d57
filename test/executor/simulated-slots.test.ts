// A simulated device's independent pieces compute side by side on the host, one per core the
// native kernels use, since its timeline is composed afterwards from the simulated durations; a
// real device still runs one piece at a time. Three independent SpMMs all on the simulated GPU:
// at some moment at least two of them are in flight; all on the CPU: never two at once. The
// composed makespan and the outputs are the same either way.

import { describe, expect, it } from 'vitest';
import type { DenseMatrix } from '../../src/data/dense.js';
import { type RunResult, runPlan } from '../../src/executor/run.js';
import { nativeAddon } from '../../src/native/addon.js';
import { WorkloadBuilder } from '../../src/workloads/builder.js';
import type { Plan } from '../../src/scheduler/schedule.js';
import { allOn, expectReferenceOutputs, Planner, withGenome } from './executor-fixtures.js';

const planner = new Planner();
const workload = new WorkloadBuilder('three-branches')
  .sparse('A', { square: true })
  .dense('X1', { rows: 'A.rows', cols: 16, generate: 'random' })
  .dense('X2', { rows: 'A.rows', cols: 16, generate: 'random' })
  .dense('X3', { rows: 'A.rows', cols: 16, generate: 'random' })
  .op('y1', 'spmm', ['A', 'X1'])
  .op('y2', 'spmm', ['A', 'X2'])
  .op('y3', 'spmm', ['A', 'X3'])
  .output('y1', 'y2', 'y3')
  .build();

/** Run the plan with every operator on `device`, and the most of its pieces in flight at once. */
async function mostAtOnce(device: string): Promise<{ most: number; plan: Plan; result: RunResult }> {
  const plan = await planner.plan(workload);
  const d = planner.system.devices.find((x) => x.name === device)!;
  const original = d.run.bind(d);
  let inFlight = 0;
  let most = 0;
  (d as { run: typeof d.run }).run = (async (...args: Parameters<typeof d.run>) => {
    most = Math.max(most, ++inFlight);
    try {
      return await original(...args);
    } finally {
      inFlight--;
    }
  }) as typeof d.run;
  try {
    const forced = withGenome(plan, allOn(plan, device));
    const result = await runPlan(forced, { replan: false, learn: false });
    return { most, plan: forced, result };
  } finally {
    (d as { run: typeof d.run }).run = original;
  }
}

describe('pieces in flight per device', () => {
  it.skipIf(nativeAddon().threads() < 2)('a simulated device computes independent pieces side by side', async () => {
    const first = await mostAtOnce('gpu');
    expect(first.most).toBeGreaterThanOrEqual(2);
    expect(first.most).toBeLessThanOrEqual(nativeAddon().threads());
    // Simulated durations: the same composed timeline and results on a second run.
    const second = await mostAtOnce('gpu');
    expect(second.result.makespan).toBe(first.result.makespan);
    for (const id of ['y1', 'y2', 'y3']) expect((second.result.outputs[id] as DenseMatrix).data).toEqual((first.result.outputs[id] as DenseMatrix).data);
    expectReferenceOutputs(first.plan, first.result);
  });

  it('a real device runs one piece at a time', async () => {
    expect((await mostAtOnce('cpu')).most).toBe(1);
  });
});
