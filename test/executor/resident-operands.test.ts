// Sparse operands on a device with memory of its own: the executor prefetches a matrix's column
// indices and values once, at their first reader on that device, and releases them when the run
// ends, whether it completes, fails or is cancelled. Here the simulated GPU is given prefetch
// and release hooks that record their calls (the CUDA backend's own are tested on a GPU).

import { afterEach, describe, expect, it } from 'vitest';
import type { Device } from '../../src/devices/device.js';
import { runPlan } from '../../src/executor/run.js';
import { allOn, expectReferenceOutputs, Planner, withGenome } from './executor-fixtures.js';

const planner = new Planner();
const gpu = planner.system.devices.find((d) => d.name === 'gpu')! as Device & { prefetch?: Device['prefetch']; release?: Device['release'] };
const originalRun = gpu.run.bind(gpu);

interface Calls {
  prefetched: ArrayBufferView[][];
  released: ArrayBufferView[][];
}

function instrument(failPrefetch = false): Calls {
  const calls: Calls = { prefetched: [], released: [] };
  gpu.prefetch = async (buffers) => {
    calls.prefetched.push([...buffers]);
    if (failPrefetch) throw new Error('out of device memory');
    return { seconds: 0, bytes: buffers.reduce((s, b) => s + b.byteLength, 0), source: 'measured' as const };
  };
  gpu.release = async (buffers) => {
    calls.released.push([...buffers]);
  };
  return calls;
}

afterEach(() => {
  delete gpu.prefetch;
  delete gpu.release;
  gpu.run = originalRun;
});

describe('operands resident on a device for the run', () => {
  it('prefetches the graph once for all its readers on the GPU and releases it at the end', async () => {
    expect(gpu.memorySpace).not.toBe('host');
    const calls = instrument();
    const plan = await planner.plan('pagerank');
    const result = await runPlan(withGenome(plan, allOn(plan, 'gpu')), { replan: false });
    expectReferenceOutputs(plan, result);
    // PageRank reads the graph in every iteration; it is copied once.
    const readers = plan.problem.bound.ops.filter((op) => op.kind === 'spmv' || op.kind === 'spmm').length;
    expect(readers).toBeGreaterThan(1);
    expect(calls.prefetched).toHaveLength(1);
    // The transition matrix's column indices (and its values): the graph's edges, as int32.
    const colIdx = calls.prefetched[0]!.find((b) => b instanceof Int32Array);
    expect(colIdx?.byteLength).toBe(planner.graph.nnz * 4);
    expect(calls.released).toHaveLength(1);
    expect(new Set(calls.released[0])).toEqual(new Set(calls.prefetched[0]));
  });

  it('prefetches nothing for operators on the host CPU', async () => {
    const calls = instrument();
    const plan = await planner.plan('pagerank');
    await runPlan(withGenome(plan, allOn(plan, 'cpu')), { replan: false });
    expect(calls.prefetched).toHaveLength(0);
    expect(calls.released).toHaveLength(0);
  });

  it('runs on when a prefetch fails (the operator copies as before) and releases nothing it did not get', async () => {
    const calls = instrument(true);
    const plan = await planner.plan('gcn');
    const result = await runPlan(withGenome(plan, allOn(plan, 'gpu')), { replan: false });
    expectReferenceOutputs(plan, result);
    expect(calls.prefetched.length).toBeGreaterThan(0);
    expect(calls.released).toHaveLength(0);
  });

  it('releases what it prefetched when an operator fails', async () => {
    const calls = instrument();
    const plan = await planner.plan('gcn');
    let n = 0;
    gpu.run = (async (...args: Parameters<Device['run']>) => {
      if (++n > 1) throw new TypeError('kernel bug');
      return originalRun(...args);
    }) as Device['run'];
    await expect(runPlan(withGenome(plan, allOn(plan, 'gpu')), { replan: false, recoverDeviceFailures: false })).rejects.toThrow(/kernel bug/);
    expect(calls.prefetched.length).toBeGreaterThan(0);
    expect(calls.released).toHaveLength(1);
    expect(new Set(calls.released[0])).toEqual(new Set(calls.prefetched.flat()));
  });

  it('releases what it prefetched when the run is cancelled', async () => {
    const calls = instrument();
    const plan = await planner.plan('pagerank');
    const controller = new AbortController();
    const reason = new Error('stop');
    await expect(
      runPlan(withGenome(plan, allOn(plan, 'gpu')), { replan: false, signal: controller.signal, observers: [{ onPiece: () => controller.abort(reason) }] }),
    ).rejects.toBe(reason);
    expect(calls.prefetched).toHaveLength(1);
    expect(calls.released).toHaveLength(1);
  });
});
