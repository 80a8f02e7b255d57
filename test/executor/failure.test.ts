// A piece that fails with recovery off (`recoverDeviceFailures: false`): the run rejects with an ExecutionError naming the operator and the device,
// keeps the original error as its cause, runs nothing that depended on it and reports no end.

import { describe, expect, it } from 'vitest';
import type { Device } from '../../src/devices/device.js';
import { DypeError, ExecutionError } from '../../src/errors.js';
import { type PieceRecord, runPlan } from '../../src/executor/run.js';
import type { Plan } from '../../src/scheduler/schedule.js';
import { Planner, wholeOn, withGenome } from './executor-fixtures.js';

// A system of its own: the devices here are tampered with.
const planner = new Planner();

/** Run `body` with `device.run` throwing `error`, restoring it afterwards. */
async function withFailingRun<T>(device: Device, error: Error, body: () => Promise<T>): Promise<T> {
  const saved = Object.getOwnPropertyDescriptor(device, 'run');
  Object.defineProperty(device, 'run', {
    configurable: true,
    writable: true,
    value: async () => {
      throw error;
    },
  });
  try {
    return await body();
  } finally {
    if (saved) Object.defineProperty(device, 'run', saved);
    else delete (device as { run?: unknown }).run;
  }
}

async function catchRun(plan: Plan): Promise<{ error: unknown; pieces: PieceRecord[]; ends: number }> {
  const pieces: PieceRecord[] = [];
  let ends = 0;
  try {
    await runPlan(plan, { replan: false, recoverDeviceFailures: false, observers: [{ onPiece: (r) => pieces.push(r), onRunEnd: () => ends++ }] });
  } catch (error) {
    return { error, pieces, ends };
  }
  throw new Error('runPlan resolved');
}

describe('a failing piece', () => {
  it.each(['gpu', 'cgra', 'cpu'])('on %s rejects with an ExecutionError naming operator and device', async (device) => {
    const base = await planner.plan('spmm');
    const plan = withGenome(base, Int32Array.of(wholeOn(base, 0, device)));
    const boom = new Error('kernel fault');
    const { error, pieces, ends } = await withFailingRun(planner.system.device(device), boom, () => catchRun(plan));
    expect(error).toBeInstanceOf(ExecutionError);
    expect(error).toBeInstanceOf(DypeError);
    const e = error as ExecutionError;
    expect(e.code).toBe('ERR_EXECUTION');
    expect(e.operator).toBe('Y');
    expect(e.device).toBe(device);
    expect(e.message.startsWith('runPlan: operator Y')).toBe(true);
    expect(e.message).toContain(device);
    expect(e.message).toContain('kernel fault');
    expect(e.cause).toBe(boom);
    expect(pieces).toHaveLength(0);
    expect(ends).toBe(0);
  });

  it('in the middle of gcn names that operator and runs nothing downstream', async () => {
    const base = await planner.plan('gcn');
    const ids = base.problem.bound.ops.map((o) => o.id);
    // Dense steps on the CPU; the aggregations (native kernels) on the GPU, whose run fails.
    const genome = Int32Array.from(ids, (id, i) => wholeOn(base, i, id.startsWith('agg') ? 'gpu' : 'cpu'));
    const plan = withGenome(base, genome);
    const { error, pieces, ends } = await withFailingRun(planner.system.device('gpu'), new Error('device lost'), () => catchRun(plan));
    expect(error).toBeInstanceOf(ExecutionError);
    const e = error as ExecutionError;
    expect([e.operator, e.device]).toEqual(['agg1', 'gpu']);
    expect(e.message).toMatch(/^runPlan: operator agg1 \(spmm\) on gpu/);
    expect(pieces.map((p) => p.op)).toEqual(['xw1']);
    expect(ends).toBe(0);
  });

  it('leaves the device usable once restored', async () => {
    const base = await planner.plan('spmm');
    const plan = withGenome(base, Int32Array.of(wholeOn(base, 0, 'gpu')));
    await withFailingRun(planner.system.device('gpu'), new Error('once'), () => catchRun(plan));
    const result = await runPlan(plan, { replan: false });
    expect(result.pieces.map((p) => p.device)).toEqual(['gpu']);
  });
});
