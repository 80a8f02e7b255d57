// A plan whose split was re-balanced after probing lists the re-balanced choice among its
// operators' choices: the chosen genome indexes plan.operators[i].choices, so a reader (the CLI's
// mapping summaries, a library user) finds the chosen split there, not past the end of the list.
// (The grid offers 50% splits only; the probes of the real CPU re-balance them to other shares,
// which the refinement adds as choices of their own.)

import { describe, expect, it } from 'vitest';
import { explore, schedule } from '../../src/scheduler/schedule.js';
import { cpuCgraSystem, smallGraph, specModel } from './schedule-fixtures.js';

describe('plan.operators after refinement', () => {
  it('holds the chosen choice of every operator, re-balanced splits included', async () => {
    const system = cpuCgraSystem();
    const options = { system, model: specModel(system), splitRatios: [0.5] };
    // Whether a re-balanced choice is chosen rests on the CPU's probes: in most runs one of these
    // inputs has one (the case this is about); every plan must hold the invariant either way.
    for (const seed of [1, 2, 3]) {
      const plan = await schedule('gcn', smallGraph(seed), { ...options, policy: 'min-time' });
      plan.problem.bound.ops.forEach((op, i) => {
        const choices = plan.operators[i]!.choices;
        expect(plan.chosen.genome[i]!, op.id).toBeLessThan(choices.length);
        expect(plan.chosen.label).toContain(`${op.id}:${choices[plan.chosen.genome[i]!]!}`);
      });
      const searched = await explore('gcn', smallGraph(seed), options);
      if (plan.problem.bound.ops.some((_, i) => plan.chosen.genome[i]! >= searched.operators[i]!.choices.length)) return;
    }
  });
});
