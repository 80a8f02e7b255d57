// `dype explore --measure` executes the chosen plan when it is not on the front (a split
// re-balanced after its probe is a mapping of its own): its row read "-" under time and energy
// (executed), the one row a user most wants executed.

import { expect, it } from 'vitest';
import { measuredGenomes } from '../../src/cli/commands/explore-measure.js';
import type { Plan } from '../../src/scheduler/schedule.js';

const g = (...v: number[]): Int32Array => Int32Array.from(v);

it('adds the chosen mapping once, after the front, before the baselines', () => {
  const plan = {
    front: [{ genome: g(0, 1) }, { genome: g(1, 1) }],
    chosen: { genome: g(5, 1) },
    baselines: [
      { feasible: true, genome: g(0, 0) },
      { feasible: true, genome: g(5, 1) },
      { feasible: false, genome: g(2, 2) },
    ],
  } as unknown as Pick<Plan, 'front' | 'chosen' | 'baselines'>;
  expect(measuredGenomes(plan).map((x) => Array.from(x))).toEqual([
    [0, 1],
    [1, 1],
    [5, 1],
    [0, 0],
  ]);
});

it('does not add a chosen mapping the front holds', () => {
  const plan = { front: [{ genome: g(0, 1) }], chosen: { genome: g(0, 1) }, baselines: [] } as unknown as Pick<Plan, 'front' | 'chosen' | 'baselines'>;
  expect(measuredGenomes(plan)).toHaveLength(1);
});
