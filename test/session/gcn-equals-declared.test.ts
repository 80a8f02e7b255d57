// A two-layer GCN written as session calls gives the reference's output and is planned exactly
// as the declared `gcn` workload on the same data: same operators, same chosen choice for each.

import { expect, it } from 'vitest';
import { schedule } from '../../src/scheduler/schedule.js';
import { type BatchRecord, SESSION_SEARCH_BUDGET } from '../../src/session/session.js';
import { referenceValues } from '../../src/workloads/reference.js';
import { declaredGcn, expectSameValue, machine, quietSession, smallGraph } from './session-fixtures.js';

it('a GCN by calls equals the reference and the declared plan', async () => {
  const graph = smallGraph();
  const { bound, A, X, W1, W2 } = declaredGcn(graph);
  const { system, model } = machine();
  // The declared plan first: the session's runs do not teach the model (learn: false), but keep the order safe anyway.
  // Planned with the session's front budgets, so that the fronts match too (the pick does anyway).
  const declared = await schedule('gcn', graph, { system, model, probe: false, budget: SESSION_SEARCH_BUDGET, exhaustiveLimit: SESSION_SEARCH_BUDGET });

  const batches: BatchRecord[] = [];
  const s = quietSession(system, model, { onBatch: (b) => batches.push(b) });
  const h1 = s.relu(s.spmm(A, s.gemm(X, W1)));
  const out = s.spmm(A, s.gemm(h1, W2));
  expect(out.state).toBe('pending');
  const y = await out.value();
  await s.close();

  const ref = referenceValues(bound);
  expectSameValue(y, ref[bound.outputs[0]!]!, 'agg2');
  expectSameValue(await h1.value(), ref[bound.values.findIndex((v) => v.name === 'h1')]!, 'h1');

  expect(batches).toHaveLength(1);
  const plan = batches[0]!.plan!;
  const chosen = (p: typeof plan): string[] => p.problem.bound.ops.map((op, i) => `${op.kind}:${p.problem.choices[i]![p.chosen.genome[i]!]!.label}`);
  expect(plan.problem.bound.ops.map((o) => o.kind)).toEqual(declared.problem.bound.ops.map((o) => o.kind));
  expect(chosen(plan)).toEqual(chosen(declared));
  expect(plan.chosen.time).toBeCloseTo(declared.chosen.time, 12);
  expect(plan.front.length).toBe(declared.front.length);
  await system.dispose();
});
