// A user-defined operator called from a session (`s.call`): its handle has the shape its rule
// gives at once, its value equals its reference, it feeds built-ins, and its batch is planned.

import { afterAll, expect, it } from 'vitest';
import { undefineOperator } from '../../src/operators/define.js';
import { denseFeatures } from '../../src/generators/index.js';
import type { BatchRecord } from '../../src/session/session.js';
import { referenceValues } from '../../src/workloads/reference.js';
import { expectSameValue, machine, quietSession, smallGraph } from '../session/session-fixtures.js';
import { defineRowScale, rowScale } from './user-fixtures.js';

defineRowScale();
afterAll(() => undefineOperator('row-scale'));

it('s.call runs a user operator, planned with the batch, equal to its reference', async () => {
  const { system, model } = machine();
  const graph = smallGraph(3);
  const x = denseFeatures({ rows: graph.rows, cols: 6, seed: 4 });
  const batches: BatchRecord[] = [];
  const s = quietSession(system, model, { onBatch: (b) => batches.push(b) });
  const scaled = s.call('row-scale', [graph, x]);
  expect([scaled.kind, scaled.rows, scaled.cols]).toEqual(['dense', graph.rows, 6]);
  const y = s.spmm(graph, s.relu(scaled));
  const value = await y.value();
  expectSameValue(await scaled.value(), rowScale(graph, x), 'row-scale (independent)');

  expect(batches).toHaveLength(1);
  const plan = batches[0]!.plan!;
  const bound = plan.problem.bound;
  expect(bound.ops.map((o) => o.kind)).toEqual(['row-scale', 'relu', 'spmm']);
  expect(plan.chosen.genome).toHaveLength(3);
  const ref = referenceValues(bound);
  expectSameValue(value, ref[bound.outputs[0]!]!, 'spmm of the user operator');
  await s.close();
  await system.dispose();
});

it('s.call refuses shapes the rule refuses, at the call, in its words', () => {
  const { system, model } = machine();
  const graph = smallGraph(3);
  const s = quietSession(system, model);
  const x = denseFeatures({ rows: graph.rows + 1, cols: 2, seed: 4 });
  expect(() => s.call('row-scale', [graph, x])).toThrow(/session\.row-scale: row-scale: x needs 256 rows, got 257/);
  expect(() => s.call('row-scale', [graph])).toThrow(/session\.call: row-scale takes 2 operand\(s\)/);
  expect(() => s.call('row-scal', [graph, x])).toThrow(/session\.call: "row-scal" is not an operator \(did you mean "row-scale"\?\)/);
  void s.close();
  return system.dispose();
});
