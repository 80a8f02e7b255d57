// A CPU piece is timed with the operands an earlier operator made handed over, as that operator's
// kernel leaves them in a run: every cache line written by the pool's threads, contents unchanged
// (src/executor/cache-turnover.ts). Probes and the oracle both do it, so a chain of CPU operators
// is priced as it runs.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { DenseMatrix } from '../../src/data/dense.js';
import { handOver, madeEarlier } from '../../src/executor/cache-turnover.js';
import { nativeAddon } from '../../src/native/addon.js';
import { Oracle } from '../../src/oracle/oracle.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { bindWorkload } from '../../src/workloads/bind.js';
import { workload } from '../../src/workloads/library.js';
import { mixedSystem } from './executor-fixtures.js';
import { smallGraph, specModel } from '../scheduler/schedule-fixtures.js';

afterEach(() => vi.restoreAllMocks());

describe('operands handed over before a CPU piece is timed', () => {
  it('keeps every byte of what it hands over, at any offset and length', () => {
    const f32 = new Float32Array(300_000);
    for (let i = 0; i < f32.length; i++) f32[i] = Math.sin(i) * 1e30;
    f32[5] = Number.NaN;
    f32[6] = -0;
    const f64 = new Float64Array(70_001).map((_, i) => i / 7);
    const odd = new Uint8Array(new ArrayBuffer(100_000)).map((_, i) => i % 251).subarray(3, 99_997);
    const before = [new Uint8Array(f32.buffer).slice(), new Uint8Array(f64.buffer).slice(), odd.slice()];
    handOver([f32, f64, odd, new Float32Array(0)]);
    // Compared whole (an element-wise matcher over megabytes takes seconds).
    expect(Buffer.compare(new Uint8Array(f32.buffer), before[0]!)).toBe(0);
    expect(Buffer.compare(new Uint8Array(f64.buffer), before[1]!)).toBe(0);
    expect(Buffer.compare(odd, before[2]!)).toBe(0);
  });

  it('hands over only dense operands an operator made', () => {
    const bound = bindWorkload(workload('gcn'), smallGraph(), {});
    const [xw1, agg1] = [bound.ops[0]!, bound.ops[1]!];
    const valuesOf = (op: typeof xw1): unknown[] =>
      op.operands.map(
        (v) =>
          bound.values[v]!.data ??
          new DenseMatrix(bound.values[v]!.rows, bound.values[v]!.cols, new Float32Array(bound.values[v]!.rows * bound.values[v]!.cols)),
      );
    expect(madeEarlier(bound, xw1, valuesOf(xw1))).toEqual([]); // X and W1 are inputs
    const made = madeEarlier(bound, agg1, valuesOf(agg1)); // the normalised graph is an input, xw1 was made
    expect(made.length).toBe(1);
    expect(made[0]!.byteLength).toBe(bound.values[xw1.output]!.rows * bound.values[xw1.output]!.cols * 4);
  });

  it('the planner and the oracle hand over a CPU aggregation its projection', async () => {
    const system = mixedSystem();
    const graph = smallGraph();
    const spy = vi.spyOn(nativeAddon(), 'handOver');
    const plan = await schedule('gcn', graph, { system, model: specModel(system), maxPoints: 0 });
    const hidden = bindWorkload(workload('gcn'), graph, {}).values[plan.problem.bound.ops[0]!.output]!;
    const projectionBytes = hidden.rows * hidden.cols * 4;
    const handed = (): number => spy.mock.calls.filter(([a]) => a.byteLength === projectionBytes).length;
    expect(handed()).toBeGreaterThan(0);
    spy.mockClear();
    await Oracle.build(plan.problem, { repeats: 2 });
    expect(handed()).toBeGreaterThan(0);
    // Never a workload input: the features (graph rows x 64) are the user's, not just written.
    const features = graph.rows * 64 * 4;
    expect(spy.mock.calls.some(([a]) => a.byteLength === features)).toBe(false);
  });
});
