// A plan whose data does not fit a device's memory is refused at schedule time, before anything
// is allocated or run: with the GPU's memory set below what the input needs and the host-memory
// devices excluded, schedule() throws an InfeasibleError naming the GPU and both sizes; with the
// host devices allowed, the plan keeps the data off the GPU.

import { expect, it } from 'vitest';
import { CostModel } from '../../src/cost/model.js';
import { buildSystem } from '../../src/devices/system.js';
import { InfeasibleError } from '../../src/errors.js';
import { kroneckerGraph } from '../../src/generators/index.js';
import { schedule } from '../../src/scheduler/schedule.js';

const system = buildSystem({
  name: 'small-gpu',
  devices: [
    { name: 'cpu', backend: 'cpu' },
    { name: 'gpu', backend: 'gpu-sim', profile: 'h100-sxm', memoryBytes: 4096 },
    { name: 'cgra', backend: 'cgra-sim' },
  ],
  links: [{ between: ['host', 'gpu'], profile: 'pcie-gen5-x16' }],
});
const model = new CostModel(system);
const graph = kroneckerGraph({ scale: 9, seed: 1 });

it('refuses at schedule time a plan that only a too-small GPU could run', async () => {
  const e = await schedule('spmm', graph, { system, model, exclude: ['cpu', 'cgra'] }).catch((x: unknown) => x);
  expect(e).toBeInstanceOf(InfeasibleError);
  expect((e as InfeasibleError).code).toBe('ERR_INFEASIBLE');
  expect((e as Error).message).toMatch(
    /^schedule: no mapping of \d+ evaluated satisfies the constraints; .*memory of gpu: needs [\d.]+ [KMG]?i?B, holds 4\.00 KiB/,
  );
});

it('keeps the data off a GPU it does not fit when other devices can run it', async () => {
  const plan = await schedule('spmm', graph, { system, model });
  expect(plan.chosen.label).not.toMatch(/gpu/);
  expect(plan.predicted.violations ?? []).toEqual([]);
});
