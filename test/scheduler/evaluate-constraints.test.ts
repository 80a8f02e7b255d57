// Mappings that break a constraint are infeasible: evaluate() returns false (still writing the
// objectives) and metrics() names what was broken and by how much: a memory space that overflows,
// a missed deadline, an exceeded energy budget.

import { describe, expect, it } from 'vitest';
import { formatBytes, formatChange, formatJoules } from '../../src/units.js';
import { Evaluator } from '../../src/scheduler/evaluate.js';
import { buildChoices } from '../../src/scheduler/candidates.js';
import { CostTable } from '../../src/scheduler/space.js';
import { bindChain, FixedCosts, genomeOf, twoDeviceSystem, uniformCosts } from './schedule-fixtures.js';

const bound = bindChain();
const bytes = (name: string): number => bound.values.find((v) => v.name === name)!.bytes;
const out = new Float64Array(2);

describe('memory capacity', () => {
  const system = twoDeviceSystem({ memoryBytes: 4096 });
  const choices = buildChoices(bound, system, [0, 1], { splits: false }, () => 1);
  const table = new CostTable(choices, bound.ops, uniformCosts(bound, [1, 1]));
  const evaluator = new Evaluator(bound, system, table, ['time', 'memory']);

  it('refuses a mapping whose data overflows the GPU memory and names the GPU', () => {
    const g = genomeOf(choices, ['gpu', 'gpu']);
    expect(evaluator.evaluate(g, out)).toBe(false);
    const need = bytes('A') + bytes('X') + bytes('Y') + bytes('H');
    expect(need).toBeGreaterThan(4096);
    expect(out[1]).toBe(need); // the memory objective: the GPU's peak
    const m = evaluator.metrics(g);
    expect(m.feasible).toBe(false);
    expect(m.memory['gpu']).toBe(need);
    expect(m.violations).toEqual([`memory of gpu: needs ${formatBytes(need)}, holds 4.00 KiB`]);
  });

  it('accepts the mapping that keeps everything in host memory', () => {
    const g = genomeOf(choices, ['cgra', 'cgra']);
    expect(evaluator.evaluate(g, out)).toBe(true);
    const m = evaluator.metrics(g);
    expect(m.feasible).toBe(true);
    expect(m.violations).toEqual([]);
    expect(m.memory['gpu']).toBe(0);
  });
});

describe('deadline and energy budget', () => {
  const system = twoDeviceSystem();
  const choices = buildChoices(bound, system, [0, 1], { splits: false }, () => 1);
  const table = new CostTable(choices, bound.ops, new FixedCosts({ Y: [1, 2], H: [1, 2] }, { Y: [10, 1], H: [10, 1] }));
  const g = genomeOf(choices, ['cgra', 'cgra']); // 4 s, 2 J active
  const free = new Evaluator(bound, system, table, ['time', 'energy']).metrics(g);
  const withLimits = (c: { deadline?: number; energyBudget?: number }): Evaluator => new Evaluator(bound, system, table, ['time', 'energy'], c);

  it('a deadline makes a slower mapping infeasible and says so', () => {
    const ev = withLimits({ deadline: 3 });
    expect(ev.evaluate(g, out)).toBe(false);
    expect(out[0]).toBe(4); // objectives are still written
    // Figures a person reads carry units and three digits, never raw floats.
    expect(ev.metrics(g).violations).toEqual(['deadline: 4.00 s > 3.00 s (+33%)']);
  });

  it('a deadline admits a mapping that finishes in time', () => {
    const ev = withLimits({ deadline: 4 });
    expect(ev.evaluate(g, out)).toBe(true);
    expect(ev.metrics(g).feasible).toBe(true);
  });

  it('an energy budget makes a hungrier mapping infeasible and says so', () => {
    const budget = free.energy / 2;
    const ev = withLimits({ energyBudget: budget });
    expect(ev.evaluate(g, out)).toBe(false);
    expect(ev.metrics(g).violations).toEqual([`energy budget: ${formatJoules(free.energy)} > ${formatJoules(budget)} (${formatChange(1)})`]);
  });

  it('an energy budget admits a mapping within it; both violations are reported together', () => {
    expect(withLimits({ energyBudget: free.energy }).evaluate(g, out)).toBe(true);
    const both = withLimits({ deadline: 1, energyBudget: 1e-3 }).metrics(g);
    expect(both.violations.map((s) => s.split(':')[0])).toEqual(['deadline', 'energy budget']);
  });
});
