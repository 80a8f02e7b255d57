// Three objectives: time, energy and memory give a front in three dimensions (no point of it
// dominated in all three by any feasible mapping found) and a hypervolume against a 3-D reference.

import { expect, it } from 'vitest';
import { explore } from '../../src/scheduler/schedule.js';
import { smallGraph, specModel, twoDeviceSystem } from './schedule-fixtures.js';

const system = twoDeviceSystem();
const model = specModel(system);

it('explores time, energy and memory together', async () => {
  const graph = smallGraph();
  const ex = await explore('gcn', graph, { system, model, splitRatios: [0.5], objectives: ['time', 'energy', 'memory'] });
  const ex2 = await explore('gcn', graph, { system, model, splitRatios: [0.5] });
  expect(ex.objectives).toEqual(['time', 'energy', 'memory']);
  expect(ex.search.exhaustive).toBe(true);
  // Memory is a third way to be good: the 3-D front keeps points the 2-D front drops.
  expect(ex.front.length).toBeGreaterThan(ex2.front.length);
  const key = (p: { time: number; energy: number; memory: number }): number[] => [p.time, p.energy, p.memory];
  const dominates = (a: number[], b: number[]): boolean => a.every((x, k) => x <= b[k]!) && a.some((x, k) => x < b[k]!);
  const front = ex.front.map(key);
  const others = ex.dominated.map(key);
  // No front point is dominated by any point found; every other point is dominated by (or equal to) a front point.
  const beaten = front.filter((p) => [...front, ...others].some((q) => dominates(q, p)));
  const unbeaten = others.filter((q) => !front.some((p) => dominates(p, q) || p.join() === q.join()));
  expect(beaten).toEqual([]);
  expect(unbeaten).toEqual([]);
  expect(ex.hypervolume.reference).toHaveLength(3);
  expect(ex.hypervolume.value).toBeGreaterThan(0);
  expect(ex.hypervolume.normalised).toBeGreaterThan(0);
  expect(ex.hypervolume.normalised).toBeLessThanOrEqual(1);
  for (const [k, o] of (['time', 'energy', 'memory'] as const).entries()) {
    expect(ex.hypervolume.reference[k]).toBeCloseTo(1.1 * Math.max(...[...ex.front, ...ex.dominated].map((p) => p[o])), 6);
  }
});
