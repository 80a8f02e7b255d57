// Elasticity of running plans on the shared machine. Growing: a job that starts while a higher-priority
// job has the GPU reserved plans around it (everything on the CGRA); when that job leaves (its
// tenant cancels, or it ends), the running job's next turn re-plans the rest onto the freed GPU and
// finishes sooner. Shrinking: a running job moves its rest off the GPU when a higher-priority job
// arrives and reserves it. Without elasticity each keeps the plan it started with. Simulated devices and the
// spec model: nothing here depends on this machine's timings.

import { expect, it } from 'vitest';
import { runPlan } from '../../src/executor/run.js';
import { backlogNames } from '../../src/scheduler/backlog.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { Interleaver } from '../../src/service/interleaver.js';
import { MachineTimeline } from '../../src/service/machine-timeline.js';
import { smallGraph, specModel, twoDeviceSystem } from '../scheduler/schedule-fixtures.js';

const system = twoDeviceSystem();
const model = specModel(system);
const graph = smallGraph();

async function lowPriorityRun(elastic: boolean) {
  const machine = new MachineTimeline(backlogNames(system), ['gpu', 'cgra'], 'shared');
  const il = new Interleaver(machine, elastic);
  // The high-priority job: it reserves the GPU for a second, its first operator ready at 10 s.
  const high = il.open({ tenant: 'high', priority: 5, weight: 1, arrival: 0 });
  high.reserve({ gpu: 1 });
  void high.enter(0, 10, { gpu: 1 });
  const low = il.open({ tenant: 'low', priority: 0, weight: 1, arrival: 0 });
  await il.earlierPlans(low);
  const plan = await schedule('gcn', graph, { system, model, probe: false, backlog: il.backlogFor(low) });
  low.reserve({});
  let pieces = 0;
  const result = await runPlan(plan, {
    gate: low,
    learn: false,
    // The high-priority job leaves once the low one's first operator has run.
    observers: [{ onPiece: () => void (++pieces === 1 && high.close()) }],
  });
  return { plan, result, slot: low.slot() };
}

it('grows a running plan onto a device freed mid-run, and only when elastic', async () => {
  const elastic = await lowPriorityRun(true);
  // Planned around the reserved GPU.
  const gpu = system.devices.findIndex((d) => d.name === 'gpu');
  expect(elastic.plan.predicted.timeline.every((e) => e.device !== gpu)).toBe(true);
  const ops = elastic.plan.problem.bound.ops.map((o) => o.id);
  const deviceOf = (r: typeof elastic.result, op: string) => [...new Set(r.pieces.filter((p) => p.op === op).map((p) => p.device))].join('+');
  expect(deviceOf(elastic.result, ops[0]!)).toBe('cgra');
  // The rest moved to the GPU at the next turn, and the run says why.
  expect(ops.slice(1).some((op) => deviceOf(elastic.result, op).includes('gpu'))).toBe(true);
  expect(elastic.result.replans).toHaveLength(1);
  expect(elastic.result.replans[0]!.reason).toMatch(/^elastic: before /);
  expect(elastic.result.replans[0]!.after).toBe(ops[0]);
  const fixed = await lowPriorityRun(false);
  expect(fixed.result.replans).toEqual([]);
  expect(fixed.result.pieces.every((p) => p.device === 'cgra')).toBe(true);
  // On the machine's clock the grown run ends sooner.
  expect(elastic.slot.finish).toBeLessThan(fixed.slot.finish);
});

it('shrinks a running plan off a device a higher-priority arrival reserves, and only when elastic', async () => {
  const run = async (elastic: boolean) => {
    const machine = new MachineTimeline(backlogNames(system), ['gpu', 'cgra'], 'shared');
    const il = new Interleaver(machine, elastic);
    const low = il.open({ tenant: 'low', priority: 0, weight: 1, arrival: 0 });
    const plan = await schedule('gcn', graph, { system, model, probe: false });
    low.reserve({});
    let high: ReturnType<Interleaver['open']> | undefined;
    const result = await runPlan(plan, {
      gate: low,
      learn: false,
      // A higher-priority job arrives once the low one's first operator has run, and reserves the GPU.
      observers: [
        {
          onPiece: () => {
            if (high) return;
            high = il.open({ tenant: 'high', priority: 5, weight: 1, arrival: 0 });
            high.reserve({ gpu: 1 });
            void high.enter(0, 10, { gpu: 1 });
          },
        },
      ],
    });
    high!.close();
    return { plan, result };
  };
  const elastic = await run(true);
  const gpu = system.devices.findIndex((d) => d.name === 'gpu');
  expect(elastic.plan.predicted.timeline.some((e) => e.device === gpu)).toBe(true);
  const first = elastic.plan.problem.bound.ops[0]!.id;
  expect(elastic.result.replans).toHaveLength(1);
  expect(elastic.result.pieces.filter((p) => p.op !== first).every((p) => p.device === 'cgra')).toBe(true);
  const fixed = await run(false);
  expect(fixed.result.replans).toEqual([]);
  expect(fixed.result.pieces.some((p) => p.op !== first && p.device === 'gpu')).toBe(true);
});
