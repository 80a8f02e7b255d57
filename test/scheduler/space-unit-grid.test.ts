// An operator of few units is split at every unit. Multi-source BFS divides 32 sources: on a 4%
// grid its two-way splits skip counts (4% of 32 is 1.28 sources), and the best split of a FEM
// mesh's search between a GPU and a CGRA (30 and 2 sources) was not on it; the planner kept the
// GPU alone, 2.2% slower. The grid is the same for the planner and the oracle: it depends on the
// operator's units alone.

import { describe, expect, it } from 'vitest';
import { buildSystem } from '../../src/devices/system.js';
import { generate } from '../../src/generators/index.js';
import { gridChoices } from '../../src/scheduler/share-grid.js';
import { bindWorkload } from '../../src/workloads/bind.js';
import { workload } from '../../src/workloads/library.js';

describe('the share grid of an operator of few units', () => {
  const system = buildSystem({
    name: 'two',
    devices: [
      { name: 'cpu', backend: 'cpu' },
      { name: 'cgra', backend: 'cgra-sim' },
    ],
    links: [],
  });
  const graph = generate({ kind: 'grid', rows: 20, cols: 20, seed: 1 });

  it('has a two-way split at every count of sources', () => {
    const bound = bindWorkload(workload('msbfs'), graph, { params: { sources: 32 } });
    const op = bound.ops[0]!;
    const set = gridChoices(bound, system, op, [0, 1], {});
    const firstCounts = new Set(set.choices.filter((c) => c.parts.length === 2).map((c) => c.parts[0]!.end - c.parts[0]!.begin));
    for (let k = 1; k < 32; k++) expect(firstCounts.has(k), `${k} of 32 sources first`).toBe(true);
  });

  it('keeps the 4% grid for an operator of many units', () => {
    const bound = bindWorkload(workload('spmm'), graph, { params: { k: 8 } });
    const op = bound.ops[0]!;
    const pairs = gridChoices(bound, system, op, [0, 1], {}).choices.filter((c) => c.parts.length === 2);
    expect(pairs.length).toBe(24);
  });
});
