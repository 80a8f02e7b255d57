// Two splits of one operator re-balanced to the same shares are told in one sentence, not two
// that differ only in the split first picked: the default `dype explore` printed "The split of
// xw1 (cpu 40% + cgra 10% + gpu 50%) was probed ... (cpu 1% + cgra <1% + gpu 98%); the final pick
// ... runs it as cpu 60% + cgra 10% + gpu 30%" and the same again for cpu 30% + cgra 10% + gpu 60%.

import { describe, expect, it } from 'vitest';
import { explain } from '../../src/scheduler/explain.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { gridInput, specModel, threeDeviceSystem } from './schedule-fixtures.js';

describe('the explanation of re-balanced splits', () => {
  it('tells the splits of one operator re-balanced to the same shares once, naming each', async () => {
    const system = threeDeviceSystem();
    const model = specModel(system);
    const plan = await schedule('spmm', gridInput(), { system, model, policy: 'min-time' });
    const { bound, costs, table, evaluator } = plan.problem;
    const op = bound.ops[0]!.id;
    const to = 'gpu 98% + gpu2 2%';
    const refined = [
      { op, from: 'gpu 80% + gpu2 20%', to },
      { op, from: 'gpu 70% + gpu2 30%', to },
      { op, from: 'gpu 80% + gpu2 20%', to },
      { op, from: 'gpu 50% + cgra 50%', to: 'gpu 90% + cgra 10%' },
    ];
    const { summary } = explain({
      bound,
      system,
      model,
      costs,
      table,
      exploration: plan,
      chosen: plan.chosen,
      predicted: plan.predicted,
      evaluator,
      policy: plan.policyRule,
      refined,
    });
    const lines = summary.filter((s) => /^The splits? of/.test(s));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain(
      `The splits of ${op} (gpu 80% + gpu2 20%; gpu 70% + gpu2 30%) were probed where they run and re-balanced from what their parts took (${to})`,
    );
    expect(lines[1]).toContain(
      `The split of ${op} (gpu 50% + cgra 50%) was probed where it runs and re-balanced from what its parts took (gpu 90% + cgra 10%)`,
    );
  });
});
