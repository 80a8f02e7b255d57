// The same seed gives the same exploration, point for point, and on a space small enough to
// enumerate NSGA-II finds the same fastest mapping as the exhaustive search.

import { expect, it } from 'vitest';
import { type Exploration, explore } from '../../src/scheduler/schedule.js';
import { smallGraph, specModel, twoDeviceSystem } from './schedule-fixtures.js';

const system = twoDeviceSystem();
const graph = smallGraph();
const points = (ex: Exploration): unknown => ({
  front: ex.front.map((p) => [p.label, p.time, p.energy, p.memory, p.latency, Array.from(p.genome)]),
  dominated: ex.dominated.map((p) => [p.label, p.time, p.energy]),
  baselines: ex.baselines.map((b) => [b.name, b.label, b.time, b.energy]),
  hypervolume: ex.hypervolume,
  evaluated: ex.search.evaluated,
});

it('gives identical results for the same seed (fresh model each time)', async () => {
  for (const search of ['exhaustive', 'nsga2']) {
    const options = { system, seed: 7, search, budget: 200, splitRatios: [0.5] };
    const a = await explore('gcn', graph, { ...options, model: specModel(system) });
    const b = await explore('gcn', graph, { ...options, model: specModel(system) });
    expect(a.search.strategy).toBe(search);
    expect(points(b)).toEqual(points(a));
  }
});

it('NSGA-II and exhaustive search agree on the fastest mapping of a small space', async () => {
  const model = specModel(system);
  for (const [name, budget] of [
    ['gcn', 200],
    ['sage', 150],
  ] as const) {
    const options = { system, model, splitRatios: [0.5] };
    const full = await explore(name, graph, { ...options, search: 'exhaustive' });
    const ga = await explore(name, graph, { ...options, search: 'nsga2', budget });
    expect(ga.search.exhaustive, name).toBe(false); // a real search, not an enumeration
    expect(ga.search.evaluated).toBeLessThan(full.search.spaceSize);
    expect(ga.front[0]!.label, name).toBe(full.front[0]!.label);
    expect(ga.front[0]!.time).toBe(full.front[0]!.time);
  }
});
