// A user operator whose cost function returns NaN, a negative number or throws is refused with an
// OperatorError naming the operator: when its workload is bound, and at the session call.

import { afterAll, expect, it } from 'vitest';
import { OperatorError } from '../../src/errors.js';
import { defineOperator, undefineOperator } from '../../src/operators/define.js';
import { WorkloadBuilder } from '../../src/workloads/builder.js';
import { bindWorkload } from '../../src/workloads/bind.js';
import { denseFeatures } from '../../src/generators/index.js';
import { machine, quietSession, smallGraph } from '../session/session-fixtures.js';
import { rowScaleSpec } from './user-fixtures.js';

defineOperator(rowScaleSpec({ name: 'nan-cost', cost: () => ({ flops: Number.NaN, bytes: 1 }) }));
defineOperator(rowScaleSpec({ name: 'negative-cost', cost: () => ({ flops: 1, bytes: -8 }) }));
defineOperator(
  rowScaleSpec({
    name: 'throwing-cost',
    cost: () => {
      throw new RangeError('no terms');
    },
  }),
);
afterAll(() => ['nan-cost', 'negative-cost', 'throwing-cost'].forEach(undefineOperator));

const using = (kind: string) =>
  new WorkloadBuilder(`w-${kind}`)
    .sparse('A', { square: true })
    .dense('X', { rows: 'A.rows', cols: 4, generate: 'random' })
    .op('y', kind, ['A', 'X'])
    .output('y')
    .build();

it('is refused when bound, naming the operator and the value', () => {
  const g = smallGraph();
  expect(() => bindWorkload(using('nan-cost'), g)).toThrow(OperatorError);
  expect(() => bindWorkload(using('nan-cost'), g)).toThrow(/^nan-cost\.cost: flops must be a finite non-negative number, got NaN/);
  expect(() => bindWorkload(using('negative-cost'), g)).toThrow(/^negative-cost\.cost: bytes must be a finite non-negative number, got -8/);
  expect(() => bindWorkload(using('throwing-cost'), g)).toThrow(/^throwing-cost\.cost: threw: no terms/);
  try {
    bindWorkload(using('nan-cost'), g);
  } catch (e) {
    expect((e as OperatorError).operator).toBe('nan-cost');
    expect((e as OperatorError).code).toBe('ERR_OPERATOR');
  }
});

it('is refused at the session call', async () => {
  const { system, model } = machine();
  const g = smallGraph();
  const s = quietSession(system, model);
  expect(() => s.call('nan-cost', [g, denseFeatures({ rows: g.rows, cols: 4, seed: 1 })])).toThrow(OperatorError);
  await s.close();
  await system.dispose();
});
