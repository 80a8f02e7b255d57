// A run on a shared machine (runPlan's `gate`): every operator waits for its turn, is placed on the
// gate's clock after the devices the gate reports busy, and the copy of the results home is the
// run's last step there. An elastic turn re-plans the operators not started against the machine's
// queues: told the GPU is taken for a long time, the run moves its remaining work to the CGRA and
// says why in its re-plans; a gate that is not elastic leaves the plan as made. Simulated devices
// and the spec model only: nothing here depends on this machine's timings.

import { describe, expect, it } from 'vitest';
import type { GateTurn, OperatorGate, OperatorPlacement } from '../../src/executor/gate.js';
import { OUTPUTS } from '../../src/executor/gate.js';
import { runPlan } from '../../src/executor/run.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { smallGraph, specModel, twoDeviceSystem } from '../scheduler/schedule-fixtures.js';
import { expectReferenceOutputs } from './executor-fixtures.js';

const system = twoDeviceSystem();
const model = specModel(system);
const graph = smallGraph();

/** A gate that grants every turn at once with `free` (absolute times) and `ahead`, and logs what the run did. */
function recordingGate(origin: number, free: Record<string, number>, elastic: boolean, ahead: Record<string, number> = {}) {
  const log: { op: number; readyAt: number; placed?: OperatorPlacement }[] = [];
  let closed = 0;
  const gate: OperatorGate = {
    origin,
    enter: async (op, readyAt): Promise<GateTurn> => {
      log.push({ op, readyAt });
      return { free, ahead, elastic };
    },
    leave: (op, placed) => {
      const entry = [...log].reverse().find((e) => e.op === op)!;
      if (placed) entry.placed = placed;
    },
    close: () => void closed++,
  };
  return { gate, log, closed: () => closed };
}

const plan = () => schedule('gcn', graph, { system, model, probe: false });

describe('runPlan through an operator gate', () => {
  it('asks a turn for every operator and the results copy, and places each after the queues the gate reports', async () => {
    const p = await plan();
    const { gate, log, closed } = recordingGate(1, { gpu: 1.5, cgra: 1.2 }, false);
    const r = await runPlan(p, { gate, replan: false, learn: false });
    expectReferenceOutputs(p, r);
    expect(log.map((e) => e.op)).toEqual([...p.problem.bound.ops.map((_, i) => i), OUTPUTS]);
    // The first operator's operands are the inputs, on the host from the run's arrival.
    expect(log[0]!.readyAt).toBe(1);
    for (const e of log) {
      expect(e.placed).toBeDefined();
      expect(e.placed!.finish).toBeGreaterThanOrEqual(e.placed!.start);
      for (const [name, until] of Object.entries(e.placed!.busyUntil))
        if (name === 'gpu' || name === 'cgra') expect(until).toBeGreaterThan(name === 'gpu' ? 1.5 : 1.2);
    }
    // Each operator is ready no sooner than its producers finished.
    for (let i = 1; i < p.problem.bound.ops.length; i++) expect(log[i]!.readyAt).toBeGreaterThanOrEqual(1);
    expect(closed()).toBe(1);
    expect(r.replans).toEqual([]);
  });

  it('re-plans the rest at a turn when elastic: a GPU taken for a second sends the remaining work to the CGRA', async () => {
    const p = await plan();
    const gpu = system.devices.findIndex((d) => d.name === 'gpu');
    // The plan puts work on the GPU on an idle machine.
    expect(p.predicted.timeline.some((e) => e.device === gpu)).toBe(true);
    const elastic = recordingGate(0, { gpu: 1 }, true);
    const moved = await runPlan(p, { gate: elastic.gate, learn: false });
    expectReferenceOutputs(p, moved);
    expect(moved.replans.length).toBeGreaterThan(0);
    expect(moved.replans[0]!.reason).toMatch(/^elastic: before \w+, the shared machine's queues/);
    expect(moved.pieces.every((x) => x.device === 'cgra')).toBe(true);
    // Not elastic: the plan runs as made, waiting for the GPU.
    const fixed = recordingGate(0, { gpu: 1 }, false);
    const kept = await runPlan(p, { gate: fixed.gate, learn: false });
    expect(kept.replans).toEqual([]);
    expect(kept.pieces.some((x) => x.device === 'gpu')).toBe(true);
    const last = (log: typeof elastic.log) => Math.max(...log.map((e) => e.placed!.finish));
    expect(last(elastic.log)).toBeLessThan(1);
    expect(last(fixed.log)).toBeGreaterThan(1);
  });

  it('counts work reserved ahead as a queue: a GPU reserved by a higher-priority run is left to it', async () => {
    const p = await plan();
    const { gate } = recordingGate(0, {}, true, { gpu: 1 });
    const r = await runPlan(p, { gate, learn: false });
    expect(r.pieces.every((x) => x.device === 'cgra')).toBe(true);
  });

  it('refuses a gate that is not one', async () => {
    const p = await plan();
    await expect(runPlan(p, { gate: { origin: 0 } as unknown as OperatorGate })).rejects.toThrow(InvalidArgumentError);
    await expect(runPlan(p, { gate: { origin: 0 } as unknown as OperatorGate })).rejects.toThrow(/runPlan: gate must be an OperatorGate/);
  });
});
