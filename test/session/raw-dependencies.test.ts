// The DAG grows from the handles each call reads (read-after-write): a call reading a handle
// becomes an operator fed by that handle's operator; calls on data alone are independent; a
// handle computed by an earlier batch is an input of the next one, holding its computed value.

import { expect, it } from 'vitest';
import { DenseMatrix } from '../../src/data/dense.js';
import { denseFeatures } from '../../src/generators/index.js';
import type { BatchRecord } from '../../src/session/session.js';
import { expectSameValue, machine, quietSession, smallGraph } from './session-fixtures.js';
import { relu, gemm } from '../../src/workloads/dense-kernels.js';

it('operators read the operators whose handles they were given, across batches too', async () => {
  const { system, model } = machine();
  const graph = smallGraph();
  const x = denseFeatures({ rows: graph.cols, cols: 8, seed: 1 });
  const w = denseFeatures({ rows: 8, cols: 4, seed: 2 });
  const batches: BatchRecord[] = [];
  const s = quietSession(system, model, { onBatch: (b) => batches.push(b) });

  const xw = s.gemm(x, w);
  const agg = s.spmm(graph, xw);
  const side = s.relu(x); // reads data only: no edge to the others
  expect([xw.id, agg.id, side.id]).toEqual(['v1', 'v2', 'v3']);
  expect([xw.rows, xw.cols, agg.rows, agg.cols]).toEqual([graph.cols, 4, graph.rows, 4]);
  await s.flush();

  const plan = batches[0]!.plan!;
  const { ops, values } = plan.problem.bound;
  const producer = (opIndex: number, operand: number): string => {
    const v = values[ops[opIndex]!.operands[operand]!]!;
    return v.producer < 0 ? `input ${v.name}` : ops[v.producer]!.id;
  };
  expect(ops.map((o) => o.id)).toEqual(['v1', 'v2', 'v3']);
  expect(producer(1, 1)).toBe('v1'); // spmm reads the gemm
  expect(producer(1, 0)).toMatch(/^input /); // and the graph
  expect(producer(2, 0)).toMatch(/^input /); // relu reads x, not an operator
  // x is one input for both calls that read it.
  expect(producer(0, 0)).toBe(producer(2, 0));
  // Sinks are the outputs (as a declared workload names its results), not every value.
  expect(plan.problem.bound.outputs.map((v) => values[v]!.name).sort()).toEqual(['v2', 'v3']);

  // A later batch reads agg's computed value as an input.
  const next = s.relu(agg);
  const r = await next.value();
  expect(batches).toHaveLength(2);
  const second = batches[1]!.plan!.problem.bound;
  const input = second.values[second.ops[0]!.operands[0]!]!;
  expect(input.producer).toBe(-1);
  expect(input.data).toBe(await agg.value());
  expectSameValue(r, relu(await agg.value()), 'relu(agg)');
  expectSameValue(await xw.value(), gemm(x, w), 'xw');
  expect(await side.value()).toBeInstanceOf(DenseMatrix);
  await s.close();
  await system.dispose();
});
