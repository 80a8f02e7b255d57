// A user operator's code that returns the wrong shape, the wrong precision or throws fails its
// piece with an OperatorError naming the operator (the cause of the run's ExecutionError, and the
// error at the session's handle); the process and the session go on.

import { afterAll, expect, it } from 'vitest';
import { DenseMatrix } from '../../src/data/dense.js';
import { ExecutionError, OperatorError } from '../../src/errors.js';
import { runPlan } from '../../src/executor/run.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { defineOperator, undefineOperator } from '../../src/operators/define.js';
import { denseFeatures } from '../../src/generators/index.js';
import { WorkloadBuilder } from '../../src/workloads/builder.js';
import { machine, quietSession, smallGraph } from '../session/session-fixtures.js';
import { allOn } from '../executor/executor-fixtures.js';
import { withGenome } from '../executor/executor-fixtures.js';
import { rowScaleSpec } from './user-fixtures.js';

const oneRowShort = ([, x]: readonly unknown[], [b, e]: readonly [number, number]) =>
  new DenseMatrix(Math.max(0, e - b - 1), (x as DenseMatrix).cols, new Float32Array(Math.max(0, e - b - 1) * (x as DenseMatrix).cols));
defineOperator(rowScaleSpec({ name: 'short-rows', devices: { cpu: oneRowShort } }));
defineOperator(
  rowScaleSpec({
    name: 'throws',
    devices: {
      cpu: () => {
        throw new TypeError('kernel exploded');
      },
    },
  }),
);
defineOperator(rowScaleSpec({ name: 'async-wrong', devices: { cpu: async () => 42 as never } }));
defineOperator(rowScaleSpec({ name: 'bad-reference', reference: () => new DenseMatrix(1, 1, new Float64Array(1)) }));
afterAll(() => ['short-rows', 'throws', 'async-wrong', 'bad-reference'].forEach(undefineOperator));

const using = (kind: string) =>
  new WorkloadBuilder(`w-${kind}`)
    .sparse('A', { square: true })
    .dense('X', { rows: 'A.rows', cols: 4, generate: 'random' })
    .op('y', kind, ['A', 'X'])
    .output('y')
    .build();

async function runFails(kind: string): Promise<OperatorError> {
  const { system, model } = machine();
  const plan = await schedule(using(kind), smallGraph(), { system, model, probe: false });
  const err = await runPlan(withGenome(plan, allOn(plan, 'cpu')), { replan: false, learn: false }).then(
    () => undefined,
    (e: unknown) => e,
  );
  await system.dispose();
  expect(err).toBeInstanceOf(ExecutionError);
  const cause = (err as ExecutionError).cause;
  expect(cause).toBeInstanceOf(OperatorError);
  expect((cause as OperatorError).operator).toBe(kind);
  return cause as OperatorError;
}

it('a piece of the wrong shape fails with an OperatorError naming the operator and rows', async () => {
  const e = await runFails('short-rows');
  expect(e.message).toMatch(/^short-rows\.devices\.cpu: returned a 255 x 4 f32 DenseMatrix for rows \[0, 256\); must be a 256 x 4 f32 DenseMatrix/);
});

it('a throwing implementation fails its piece, its error kept as the cause', async () => {
  const e = await runFails('throws');
  expect(e.message).toBe('throws.devices.cpu: threw: kernel exploded');
  expect(e.cause).toBeInstanceOf(TypeError);
});

it('an implementation resolving to something else fails its piece', async () => {
  const e = await runFails('async-wrong');
  expect(e.message).toMatch(/^async-wrong\.devices\.cpu: returned 42 for rows/);
});

it('the error surfaces at the session handle, and the session goes on', async () => {
  const { system, model } = machine();
  const g = smallGraph();
  const x = denseFeatures({ rows: g.rows, cols: 4, seed: 1 });
  const s = quietSession(system, model, { policy: 'min-time' });
  const bad = s.call('throws', [g, x]);
  await expect(bad.value()).rejects.toThrow(/throws\.devices\.cpu: threw: kernel exploded/);
  const good = s.relu(x);
  expect((await good.value()).rows).toBe(g.rows);
  await s.close();
  await system.dispose();
});

it('a reference of the wrong shape is an OperatorError', async () => {
  const { referenceValues } = await import('../../src/workloads/reference.js');
  const { bindWorkload } = await import('../../src/workloads/bind.js');
  expect(() => referenceValues(bindWorkload(using('bad-reference'), smallGraph()))).toThrow(
    /^bad-reference\.reference: returned a 1 x 1 f64 DenseMatrix; must be a 256 x 4 f32 DenseMatrix/,
  );
});
