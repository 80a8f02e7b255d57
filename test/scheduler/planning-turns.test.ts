// Planning gives the event loop a turn between its long synchronous stretches (binding the data,
// each exact search, the front's search, the pick), so a server planning on its one loop still
// reads other requests, and a cancelled plan stops at the next turn instead of after the whole
// plan. Without probes and with the system and model given, nothing else in schedule() waits on
// the loop: every turn counted here is one planning asked for.

import { expect, it } from 'vitest';
import { schedule } from '../../src/scheduler/schedule.js';
import { smallGraph, specModel, twoDeviceSystem } from './schedule-fixtures.js';

const system = twoDeviceSystem();
const model = specModel(system);
const graph = smallGraph();

it('lets the event loop turn several times while it plans', async () => {
  let turns = 0;
  let counting = true;
  const tick = (): void => {
    turns++;
    if (counting) setImmediate(tick);
  };
  setImmediate(tick);
  const plan = await schedule('gcn', graph, { system, model, probe: false });
  counting = false;
  expect(plan.chosen.label.length).toBeGreaterThan(0);
  // After binding, after the choices, before each of three exact searches, before the front, before the pick.
  expect(turns).toBeGreaterThanOrEqual(6);
});

it('stops a plan cancelled while it runs, with the abort reason', async () => {
  const controller = new AbortController();
  setImmediate(() => controller.abort(new Error('cancelled by the client')));
  await expect(schedule('gcn', graph, { system, model, probe: false, signal: controller.signal })).rejects.toThrow('cancelled by the client');
});
