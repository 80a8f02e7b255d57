// Operators forced into two- and three-way splits across the CPU, the GPU and the CGRA: the parts
// are joined in unit order into the same outputs as the reference (rows of dense results, sources
// of multi-source BFS). Predicted costs of such pieces are not the plan's and are not checked.

import { describe, expect, it } from 'vitest';
import { runPlan } from '../../src/executor/run.js';
import { expectReferenceOutputs, pieceCount, Planner, widestSplit, withGenome } from './executor-fixtures.js';

const planner = new Planner();

describe.each(['gcn', 'msbfs', 'pagerank', 'sage', 'spmm'])('%s split across devices', (name) => {
  it.each([
    ['three-way, first', 3, false],
    ['three-way, last', 3, true],
    ['two-way, first', 2, false],
    ['two-way, last', 2, true],
  ] as const)('%s choice of each operator joins to the reference', async (_, ways, last) => {
    const base = await planner.plan(name);
    const genome = widestSplit(base, ways, last);
    const plan = withGenome(base, genome);
    // The forced mapping really splits something ways-fold.
    expect(plan.problem.choices.some((cs, i) => cs[genome[i]!]!.parts.length === ways)).toBe(true);
    const result = await runPlan(plan, { replan: false });
    expect(result.pieces).toHaveLength(pieceCount(plan, genome));
    expectReferenceOutputs(plan, result);
  });
});
