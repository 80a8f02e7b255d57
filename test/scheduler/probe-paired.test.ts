// Parts to be compared with one another (a split's neighbouring shares and each device alone,
// where the real CPU takes part) are timed together in rounds, so a busy spell of the shared
// machine falls on all of them alike: priced one at a time at different moments, two shares 8
// points apart on the CPU were 1.2x apart in the plan and picked the wrong way.

import { describe, expect, it } from 'vitest';
import { generate } from '../../src/generators/index.js';
import type { ProbedCostSource } from '../../src/scheduler/probed-costs.js';
import type { Prober } from '../../src/scheduler/probe.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { cpuCgraSystem, specModel } from './schedule-fixtures.js';

describe('probing parts together', () => {
  const system = cpuCgraSystem();
  const graph = generate({ kind: 'grid', rows: 40, cols: 40, seed: 1 });

  it('prices every real part given, as it ran in the same rounds, replacing an earlier price', async () => {
    const plan = await schedule('spmm', graph, { system, model: specModel(system), params: { k: 8 } });
    const prober = plan.problem.prober as Prober;
    const costs = plan.problem.costs as ProbedCostSource;
    const op = plan.problem.bound.ops[0]!;
    const n = op.units;
    const parts = [0.3, 0.5, 0.7].map((f) => ({ device: 0, begin: 0, end: Math.round(f * n) }));
    await prober.probePart(op.index, 0, 0, parts[1]!.end);
    const before = costs.cost(op, 0, 0, parts[1]!.end);
    const calls = costs.probeCalls;
    await prober.probePartsTogether(op.index, [...parts, { device: 1, begin: parts[1]!.end, end: n }]);
    // One timing per real part (the simulated one is priced once, as before).
    expect(costs.probeCalls - calls).toBe(4);
    for (const p of parts) expect(costs.hasPart(op.index, 0, p.begin, p.end)).toBe(true);
    // Timed again: a new figure, not the earlier one kept.
    expect(costs.cost(op, 0, 0, parts[1]!.end)).not.toBe(before);
  });
});
