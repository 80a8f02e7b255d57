// A session searches each batch's front with a small budget (SESSION_SEARCH_BUDGET) where its
// policy's pick is the exact optimum anyway: an 11-operator batch picks what the declared
// workload planned with schedule's full 2000-evaluation search picks, and a budget the user
// gives still wins. (Unsplit operators: the exact pick over splits of 11 operators takes seconds.)

import { expect, it } from 'vitest';
import type { DenseMatrix } from '../../src/data/dense.js';
import { denseFeatures } from '../../src/generators/index.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { type BatchRecord, SESSION_SEARCH_BUDGET } from '../../src/session/session.js';
import { WorkloadBuilder } from '../../src/workloads/builder.js';
import { machine, quietSession, smallGraph } from './session-fixtures.js';

it('an 11-operator batch is searched with the session budget and picks as the declared plan does', async () => {
  const A = smallGraph();
  const Xs = [1, 2, 3, 4].map((seed) => denseFeatures({ rows: A.cols, cols: 16, seed }));
  const builder = new WorkloadBuilder('branches').sparse('A');
  const data: Record<string, typeof A | DenseMatrix> = { A };
  Xs.forEach((x, k) => {
    builder.dense(`X${k}`, { rows: x.rows, cols: x.cols });
    data[`X${k}`] = x;
    builder.op(`s${k}`, 'spmm', ['A', `X${k}`]).op(`r${k}`, 'relu', [`s${k}`]);
  });
  builder.op('j1', 'add', ['r0', 'r1']).op('j2', 'add', ['r2', 'r3']).op('j', 'add', ['j1', 'j2']).output('j');
  const { system, model } = machine();
  const declared = await schedule(builder.build(), data, { system, model, probe: false, splits: false, maxPoints: 0 });
  expect(declared.search.exhaustive).toBe(false);
  expect(declared.search.evaluated).toBe(2000);

  const batchOf = async (options: { budget?: number }): Promise<BatchRecord> => {
    const batches: BatchRecord[] = [];
    const s = quietSession(system, model, { splits: false, ...options, onBatch: (b) => batches.push(b) });
    const r = Xs.map((x) => s.relu(s.spmm(A, x)));
    await s.add(s.add(r[0]!, r[1]!), s.add(r[2]!, r[3]!)).value();
    await s.close();
    expect(batches).toHaveLength(1);
    return batches[0]!;
  };
  const labels = (p: NonNullable<BatchRecord['plan']>): string[] =>
    p.problem.bound.ops.map((op, i) => `${op.kind}:${p.problem.choices[i]![p.chosen.genome[i]!]!.label}`);

  const small = (await batchOf({})).plan!;
  expect(small.search.evaluated).toBeLessThanOrEqual(SESSION_SEARCH_BUDGET);
  expect(labels(small)).toEqual(labels(declared));
  expect(small.chosen.time).toBeCloseTo(declared.chosen.time, 12);

  const full = (await batchOf({ budget: 2000 })).plan!;
  expect(full.search.evaluated).toBe(2000);
  await system.dispose();
});
