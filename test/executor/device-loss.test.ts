// Device loss: a device withdrawn mid-run (DeviceLoss.withdraw) or failing under a piece has the
// rest of its work re-planned onto the other devices; the outputs still equal the reference,
// nothing runs on the lost device afterwards, and the re-plan is recorded with its reason.

import { afterEach, describe, expect, it } from 'vitest';
import type { Device } from '../../src/devices/device.js';
import { DeviceLoss, type PieceRecord, runPlan } from '../../src/executor/run.js';
import { ExecutionError } from '../../src/errors.js';
import { expectReferenceOutputs, Planner, wholeOn, withGenome } from './executor-fixtures.js';

const planner = new Planner();
const gpu = planner.system.devices.find((d) => d.name === 'gpu')! as Device & { run: Device['run'] };
const original = gpu.run.bind(gpu);
afterEach(() => {
  gpu.run = original;
});

async function allOnGpu(name = 'pagerank'): Promise<ReturnType<typeof withGenome>> {
  const plan = await planner.plan(name);
  return withGenome(
    plan,
    Int32Array.from(plan.problem.bound.ops, (_, i) => wholeOn(plan, i, 'gpu')),
  );
}

describe('device loss', () => {
  it('a withdrawn GPU: the rest of the run goes elsewhere and the result is the reference', async () => {
    const plan = await allOnGpu();
    const loss = new DeviceLoss();
    const pieces: PieceRecord[] = [];
    const result = await runPlan(plan, {
      replan: false,
      deviceLoss: loss,
      observers: [
        {
          onPiece: (r) => {
            pieces.push(r);
            if (r.op === 'p1') loss.withdraw('gpu');
          },
        },
      ],
    });
    expectReferenceOutputs(plan, result);
    const after = pieces.slice(pieces.findIndex((p) => p.op === 'p1') + 1);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((p) => p.device !== 'gpu')).toBe(true);
    expect(result.replans.some((r) => /^device gpu lost while running \w+ \(withdrawn\)/.test(r.reason))).toBe(true);
    expect(result.mapping).not.toContain('p4:gpu');
  });

  it('a GPU that starts failing is treated as lost, and the run completes', async () => {
    const plan = await allOnGpu('gcn');
    let calls = 0;
    gpu.run = (async (...args: Parameters<Device['run']>) => {
      if (++calls > 1) throw new Error('Xid 79: GPU has fallen off the bus');
      return original(...args);
    }) as Device['run'];
    const result = await runPlan(plan, { replan: false });
    expectReferenceOutputs(plan, result);
    const lostRecord = result.replans.find((r) => r.reason.includes('device gpu lost'));
    expect(lostRecord?.reason).toContain('fallen off the bus');
    // agg1 ran on the GPU; its second kernel, agg2, failed there and ran elsewhere.
    expect(lostRecord?.after).toBe('agg2');
    expect(result.pieces.filter((p) => p.op === 'agg2').every((p) => p.device !== 'gpu')).toBe(true);
    expect(result.pieces.filter((p) => p.op === 'agg1').map((p) => p.device)).toEqual(['gpu']);
  });

  it('rejects with an ExecutionError when no device is left for the rest', async () => {
    const plan = await allOnGpu('spmm');
    const loss = new DeviceLoss();
    for (const d of ['gpu', 'cpu', 'cgra']) loss.withdraw(d);
    const run = runPlan(plan, { deviceLoss: loss });
    await expect(run).rejects.toBeInstanceOf(ExecutionError);
    await expect(run).rejects.toThrow(/^runPlan: operator Y \(spmm\): device \w+ was lost and no remaining device can take the rest of the plan$/);
  });
});
