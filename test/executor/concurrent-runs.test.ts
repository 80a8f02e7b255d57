// Two runs of one plan at once share the devices (each runs its pieces one at a time) and both
// return the reference outputs and a full timeline of their own.

import { expect, it } from 'vitest';
import { runPlan } from '../../src/executor/run.js';
import { expectReferenceOutputs, pieceCount, Planner, widestSplit, withGenome } from './executor-fixtures.js';

const planner = new Planner();

it.each(['gcn', 'msbfs'])('two concurrent runs of a split %s both match the reference', async (name) => {
  const base = await planner.plan(name);
  const plan = withGenome(base, widestSplit(base, 3));
  const [a, b] = await Promise.all([runPlan(plan, { replan: false }), runPlan(plan, { replan: false })]);
  expect(a).not.toBe(b);
  for (const r of [a, b]) {
    expect(r.pieces).toHaveLength(pieceCount(plan));
    expectReferenceOutputs(plan, r);
  }
});
