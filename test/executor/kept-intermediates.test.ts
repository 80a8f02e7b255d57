// Intermediates kept on a device with memory of its own, their host copy deferred: the executor
// fetches such a value home before anything but a whole operator on the same device reads it,
// brings the outputs home once at the end, and drops every kept copy. Here the simulated GPU
// plays such a device: its SpMM results are announced as kept, their host arrays blanked until
// `fetch` puts them back (the CUDA backend's own keeping is tested on a GPU).

import { afterEach, describe, expect, it } from 'vitest';
import type { Device } from '../../src/devices/device.js';
import { ExecutionError } from '../../src/errors.js';
import { announceOutputs, takeKeptOutputs } from '../../src/devices/kept-outputs.js';
import { runPlan } from '../../src/executor/run.js';
import { allOn, expectReferenceOutputs, Planner, withGenome } from './executor-fixtures.js';

const planner = new Planner();
const gpu = planner.system.devices.find((d) => d.name === 'gpu')! as Device & { fetch?: Device['fetch']; release?: Device['release'] };
const originalRun = gpu.run.bind(gpu);

interface Calls {
  fetched: number;
  fetchedBytes: number;
  released: ArrayBufferView[];
}

/** The simulated GPU keeps its SpMM results, blanked on the host until fetched. */
function keepingGpu(): Calls {
  const calls: Calls = { fetched: 0, fetchedBytes: 0, released: [] };
  const saved = new Map<ArrayBufferView, Float32Array | Float64Array>();
  gpu.run = (async (op, inputs, range, options) => {
    const r = await originalRun(op, inputs, range, options);
    const data = (r.output as { data?: Float32Array | Float64Array }).data;
    if (data && announceOutputs([data], options?.keepOutputs) === true) {
      saved.set(data, data.slice());
      data.fill(Number.NaN); // a stale read would poison the result
    }
    return r;
  }) as Device['run'];
  gpu.fetch = async (buffers) => {
    let bytes = 0;
    for (const b of buffers) {
      const s = saved.get(b);
      if (!s) continue;
      (b as Float32Array | Float64Array).set(s);
      saved.delete(b);
      bytes += b.byteLength;
    }
    calls.fetched++;
    calls.fetchedBytes += bytes;
    return { seconds: 0, bytes, source: 'measured' as const };
  };
  gpu.release = async (buffers) => {
    takeKeptOutputs(buffers);
    calls.released.push(...buffers);
  };
  return calls;
}

afterEach(() => {
  delete gpu.fetch;
  delete gpu.release;
  gpu.run = originalRun;
});

describe('intermediates kept on a device', () => {
  it('GCN on the device: the host-computed steps read their operands fetched, the output comes home once', async () => {
    const calls = keepingGpu();
    const plan = await planner.plan('gcn');
    const result = await runPlan(withGenome(plan, allOn(plan, 'gpu')), { replan: false, bfsLevels: false });
    expectReferenceOutputs(plan, result);
    // Two SpMMs kept: the first's result is read by the ReLU (computed on the host for a simulator),
    // the second's is the output.
    expect(calls.fetched).toBe(2);
    expect(result.deviceCopies.toHostBytes).toBe(calls.fetchedBytes);
    expect(calls.released.length).toBe(2);
  });

  it('a kept result the device cannot bring home fails the run, naming the operator that made it', async () => {
    const calls = keepingGpu();
    gpu.fetch = async () => {
      throw new Error('the device stopped answering');
    };
    const plan = await planner.plan('gcn');
    const err = await runPlan(withGenome(plan, allOn(plan, 'gpu')), { replan: false, bfsLevels: false }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ExecutionError);
    const spmm = plan.problem.bound.ops.find((op) => op.kind === 'spmm')!.id;
    expect((err as ExecutionError).operator).toBe(spmm);
    expect((err as Error).message).toMatch(new RegExp(`the result of ${spmm}, kept on gpu, could not be brought home: the device stopped answering`));
    // What was kept is released all the same.
    expect(calls.released.length).toBeGreaterThan(0);
  });

  it('on the host CPU nothing is kept or fetched', async () => {
    const calls = keepingGpu();
    const plan = await planner.plan('gcn');
    const result = await runPlan(withGenome(plan, allOn(plan, 'cpu')), { replan: false, bfsLevels: false });
    expectReferenceOutputs(plan, result);
    expect(calls.fetched).toBe(0);
    expect(result.deviceCopies).toEqual({ toDeviceBytes: 0, toHostBytes: 0 });
  });

  it('under keepValues every value is fetched home and equals the reference run', async () => {
    const calls = keepingGpu();
    const plan = await planner.plan('gcn');
    const result = await runPlan(withGenome(plan, allOn(plan, 'gpu')), { replan: false, bfsLevels: false, keepValues: true });
    expectReferenceOutputs(plan, result);
    for (const [id, v] of Object.entries(result.values!)) {
      const data = (v as { data?: Float32Array }).data;
      if (data)
        expect(
          data.some((x) => Number.isNaN(x)),
          `${id} has no stale entries`,
        ).toBe(false);
    }
    expect(calls.released.length).toBe(2);
  });
});
