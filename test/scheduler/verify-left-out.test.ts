// A real device whose first probes came out slow (a busy spell on a shared machine) must still be
// run beside the pick before the pick is final, however far that window priced it: on the CPU
// systems one slow window put a GCN's CPU beyond every near alternative, the pick moved to the
// simulators, and nothing ran the CPU again. The "real" device here is a simulated GPU standing
// in for one (its times deterministic), a thousand times slow until the whole operator has run
// four times (the first probe's warm-up and three timed rounds): a slow spell over that probe.

import { describe, expect, it } from 'vitest';
import type { Device } from '../../src/devices/device.js';
import { buildSystem, System } from '../../src/devices/system.js';
import { generate } from '../../src/generators/index.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { specModel } from './schedule-fixtures.js';
import { slowAtFirst } from './slow-device.js';

describe('verifying a pick against a real device it left out', () => {
  it('runs the real device beside the pick, and picks it back where it is faster', async () => {
    const sims = buildSystem({
      name: 'sims',
      devices: [
        { name: 'gpu', backend: 'gpu-sim', profile: 'h100-sxm' },
        { name: 'cgra', backend: 'cgra-sim' },
      ],
      links: [{ between: ['host', 'gpu'], profile: 'pcie-gen5-x16' }],
    });
    const [gpu, cgra] = sims.devices as [Device, Device];
    const system = new System('left-out', [slowAtFirst(gpu, 1000, 4), cgra], []);
    const graph = generate({ kind: 'kronecker', scale: 11, seed: 3 });
    const plan = await schedule('spmm', graph, { system, model: specModel(system), params: { k: 16 } });
    const choice = plan.problem.choices[0]![plan.chosen.genome[0]!]!;
    expect(
      choice.parts.some((p) => p.device === 0),
      choice.label,
    ).toBe(true);
  });
});
