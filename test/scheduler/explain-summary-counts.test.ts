// The explanation's summary reads as prose: counts with separators and the right number ("1
// Pareto-optimal mapping", "2,000 evaluated"), each re-balanced split told once, and a chosen
// mapping made after the search (re-balanced, or a near alternative priced exactly) not called
// one of the front's mappings when it is not among them.

import { describe, expect, it } from 'vitest';
import { schedule } from '../../src/scheduler/schedule.js';
import { formatCount } from '../../src/units.js';
import { gridInput, specModel, threeDeviceSystem } from './schedule-fixtures.js';

describe('the explanation summary', () => {
  it('counts, tells each refinement once, and says whether the chosen mapping is on the front', async () => {
    const system = threeDeviceSystem();
    const plan = await schedule('spmm', gridInput(), { system, model: specModel(system), policy: 'min-time' });
    const chosenLine = plan.explanation.summary.find((s) => s.startsWith('Chosen by'))!;
    const n = plan.front.length;
    expect(chosenLine).toContain(`${n} Pareto-optimal ${n === 1 ? 'mapping' : 'mappings'}`);
    expect(chosenLine).toContain(`among ${formatCount(plan.search.evaluated)} evaluated`);
    const onFront = plan.front.some((p) => p.genome.every((c, i) => c === plan.chosen.genome[i]));
    expect(chosenLine.includes('so it is not among them')).toBe(!onFront);
    const refinements = plan.explanation.summary.filter((s) => /^The splits? of/.test(s));
    expect(refinements.length).toBeGreaterThan(0);
    expect(new Set(refinements).size).toBe(refinements.length);
    for (const line of plan.explanation.summary) expect(line).not.toMatch(/\d{4,}(?![\d,])(?! B)/);
  });
});
