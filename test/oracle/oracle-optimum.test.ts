// The oracle's optimum is exact: branch and bound over its space finds what enumerating every
// mapping finds, for each objective, and no single-device mapping beats it.

import { expect, it } from 'vitest';
import { Oracle } from '../../src/oracle/oracle.js';
import { explore } from '../../src/scheduler/schedule.js';
import { smallGraph, specModel, twoDeviceSystem } from '../scheduler/schedule-fixtures.js';

const value = (o: string, t: number, e: number): number => (o === 'min-time' ? t : o === 'min-energy' ? e : t * e);

it('finds the same best mapping as enumerating the whole space, for every objective', async () => {
  const system = twoDeviceSystem();
  const ex = await explore('gcn', smallGraph(), { system, model: specModel(system) });
  const oracle = await Oracle.build(ex.problem, { grid: { pairStep: 0.2, tripleStep: 0.5 } });
  const card = oracle.choices.map((c) => c.length);
  const size = card.reduce((p, c) => p * c, 1);
  expect(size).toBeGreaterThan(1000);
  expect(size).toBeLessThan(2e6);
  const out = new Float64Array(2);
  for (const o of ['min-time', 'min-energy', 'min-edp'] as const) {
    let best = Infinity;
    const g = new Int32Array(card.length);
    for (;;) {
      if (oracle.evaluator.evaluate(g, out)) best = Math.min(best, value(o, out[0]!, out[1]!));
      let k = 0;
      while (k < g.length && ++g[k]! === card[k]!) g[k++] = 0;
      if (k === g.length) break;
    }
    const opt = oracle.optimum(o);
    expect(opt.exact).toBe(true);
    expect(opt.value, o).toBe(best);
    expect(opt.nodes, o).toBeLessThan(size); // the bound cut something
    const m = oracle.metrics(opt.genome);
    expect(value(o, m.makespan, m.energy)).toBe(opt.value);
  }
});

it('reports no optimum when nothing is feasible', async () => {
  const system = twoDeviceSystem();
  const ex = await explore('spmm', smallGraph(), { system, model: specModel(system), splits: false });
  const oracle = await Oracle.build({ ...ex.problem, constraints: { deadline: 1e-12 } });
  const best = oracle.optimum('min-time');
  expect(best.value).toBe(Infinity);
  expect(best.genome).toHaveLength(0);
});

it('scores any mapping by executing its pieces: the planner pick composes from the same costs', async () => {
  const system = twoDeviceSystem();
  const ex = await explore('spmm', smallGraph(), { system, model: specModel(system) });
  const oracle = await Oracle.build(ex.problem);
  const pick = Array.from(ex.front[0]!.genome, (c, i) => ex.problem.choices[i]![c]!);
  const scored = await oracle.score(pick);
  expect(scored.median.makespan).toBeGreaterThan(0);
  expect(scored.median.makespan).toBeGreaterThanOrEqual(oracle.optimum('min-time').value * (1 - 1e-12));
  // A mapping of the oracle's own space scores as the oracle composes it.
  const best = oracle.optimum('min-time');
  const again = await oracle.score(Array.from(best.genome, (c, i) => oracle.choices[i]![c]!));
  expect(again.median.makespan).toBe(best.time);
});
