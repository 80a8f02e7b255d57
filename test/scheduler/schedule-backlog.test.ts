// backlog: work queued ahead on a device (or a link direction) delays everything the plan puts
// there, so a busy device costs its queue: the pick moves off a device whose backlog outweighs its
// speed, the makespan counts the wait, and the waiting is not billed as the mapping's idle energy.

import { expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors.js';
import { runPlan } from '../../src/executor/run.js';
import { explore, schedule } from '../../src/scheduler/schedule.js';
import { smallGraph, specModel, twoDeviceSystem } from './schedule-fixtures.js';

const system = twoDeviceSystem();
const model = specModel(system);
const graph = smallGraph();
const base = { system, model, probe: false } as const;

it('moves the pick off a device whose queue outweighs its speed, and counts the wait', async () => {
  const idle = await schedule('spmm', graph, base);
  expect(idle.chosen.label).toMatch(/:gpu$/);
  const wait = 10 * idle.chosen.time;
  const busy = await schedule('spmm', graph, { ...base, backlog: { gpu: wait } });
  expect(busy.chosen.label).toMatch(/:cgra$/);
  // The GPU alone now finishes after its queue: the wait is in its makespan.
  const gpuAlone = busy.baselines.find((b) => b.name === 'gpu alone')!;
  expect(gpuAlone.time!).toBeGreaterThan(wait);
  // A zero backlog is no backlog.
  const zero = await schedule('spmm', graph, { ...base, backlog: { gpu: 0 } });
  expect(zero.chosen.label).toBe(idle.chosen.label);
  expect(zero.chosen.time).toBe(idle.chosen.time);
});

it('bills no idle energy for the time a device spends on the work ahead', async () => {
  // The CGRA works in host memory: no copy overlaps its wait, so the wait adds exactly.
  const idle = await schedule('spmm', graph, { ...base, exclude: ['gpu'] });
  const wait = 0.5 * idle.chosen.time;
  const busy = await schedule('spmm', graph, { ...base, exclude: ['gpu'], backlog: { cgra: wait }, fixedMapping: idle.mapping });
  expect(busy.chosen.time).toBeCloseTo(idle.chosen.time + wait, 12);
  expect(busy.chosen.energy).toBeCloseTo(idle.chosen.energy, 12);
});

it('delays copies behind a busy link direction', async () => {
  const idle = await schedule('spmm', graph, base);
  const wait = 5 * idle.chosen.time;
  const ex = await explore('spmm', graph, { ...base, backlog: { 'host->gpu': wait } });
  const gpuAlone = ex.baselines.find((b) => b.name === 'gpu alone')!;
  expect(gpuAlone.time!).toBeGreaterThan(wait);
});

it('runs behind the backlog it was planned against, and says when it leaves each device', async () => {
  const plan = await schedule('spmm', graph, { ...base, backlog: { cgra: 1e-3 } });
  const result = await runPlan(plan, { learn: false, replan: false });
  const used = plan.predicted.timeline.map((e) => system.devices[e.device]!.name);
  for (const name of used) expect(result.busyUntil[name]!).toBeGreaterThan(name === 'cgra' ? 1e-3 : 0);
  if (used.includes('cgra')) expect(result.composedMakespan).toBeGreaterThan(1e-3);
  // A device the run does not use is left at its backlog.
  if (!used.includes('cgra')) expect(result.busyUntil['cgra']).toBe(1e-3);
  // The run's own backlog overrides the plan's.
  const later = await runPlan(plan, { learn: false, replan: false, backlog: { gpu: 2e-3, cgra: 2e-3 } });
  expect(later.composedMakespan).toBeGreaterThan(2e-3);
  expect(Object.keys(later.busyUntil).sort()).toEqual(['cgra', 'gpu', 'gpu->host', 'host->gpu']);
});

it('refuses a backlog that names nothing in the system, or a bad number of seconds', async () => {
  const e1 = await schedule('spmm', graph, { ...base, backlog: { gpuu: 1 } }).catch((x: unknown) => x);
  expect(e1).toBeInstanceOf(InvalidArgumentError);
  expect((e1 as Error).message).toBe('schedule: backlog names "gpuu", which is no device or link direction of system t (did you mean "gpu"?)');
  const e2 = await schedule('spmm', graph, { ...base, backlog: { gpu: -1 } }).catch((x: unknown) => x);
  expect((e2 as Error).message).toBe('schedule: backlog.gpu must be seconds in [0, 1e9], got -1');
  const e3 = await schedule('spmm', graph, { ...base, backlog: { gpu: Number.NaN } }).catch((x: unknown) => x);
  expect((e3 as Error).message).toBe('schedule: backlog.gpu must be seconds in [0, 1e9], got NaN');
  const e4 = await schedule('spmm', graph, { ...base, backlog: [1] as never }).catch((x: unknown) => x);
  expect((e4 as Error).message).toMatch(/^schedule: backlog must be a map of device names/);
  const plan = await schedule('spmm', graph, base);
  const e5 = await runPlan(plan, { backlog: { tpu: 1 } }).catch((x: unknown) => x);
  expect((e5 as Error).message).toMatch(/^runPlan: backlog names "tpu"/);
});
