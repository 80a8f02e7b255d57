// exclude: the named devices get no part of any operator; excluding every device is infeasible.

import { expect, it } from 'vitest';
import { InfeasibleError } from '../../src/errors.js';
import { explore, schedule } from '../../src/scheduler/schedule.js';
import { smallGraph, specModel, twoDeviceSystem } from './schedule-fixtures.js';

const system = twoDeviceSystem();
const model = specModel(system);
const graph = smallGraph();

it('keeps an excluded device out of every choice, point and baseline', async () => {
  const plan = await schedule('gcn', graph, { system, model, exclude: ['gpu'] });
  for (const ops of plan.problem.choices) for (const c of ops) for (const p of c.parts) expect(p.device).toBe(1);
  for (const o of plan.operators) expect(o.choices).toEqual(['cgra']);
  for (const p of [...plan.front, ...plan.dominated]) expect(p.label).not.toMatch(/gpu/);
  expect(plan.mapping.flatMap((m) => m.devices)).not.toContain('gpu');
  expect(plan.baselines.map((b) => b.name)).toEqual(['cgra alone', 'heft']);
  expect(plan.predicted.timeline.every((e) => e.device === 1)).toBe(true);
});

it('refuses to plan with every device excluded', async () => {
  const e = await explore('spmm', graph, { system, model, exclude: ['gpu', 'cgra'] }).catch((x: unknown) => x);
  expect(e).toBeInstanceOf(InfeasibleError);
  expect((e as InfeasibleError).code).toBe('ERR_INFEASIBLE');
  expect((e as Error).message).toBe('explore: every device is excluded (gpu, cgra)');
});
