// Conformance: every registered user-defined operator, on every device it brings code for, whole
// and over split row ranges, against its own reference. Operators register a case here (a spec
// and a workload that uses it); the suite runs whatever the registry then holds.

import { afterAll, describe, expect, it } from 'vitest';
import type { DenseMatrix } from '../../../src/data/dense.js';
import { runPiece } from '../../../src/executor/piece.js';
import { defineOperator, undefineOperator } from '../../../src/operators/define.js';
import { operatorKinds } from '../../../src/operators/registry.js';
import { kroneckerGraph } from '../../../src/generators/index.js';
import { WorkloadBuilder } from '../../../src/workloads/builder.js';
import { bindWorkload } from '../../../src/workloads/bind.js';
import { referenceValues } from '../../../src/workloads/reference.js';
import { rowScaleSpec } from '../../operators/user-fixtures.js';
import { conformanceDevices, splitRanges } from './harness.js';

/** One workload per user operator: its operands from a small graph and generated features. */
const CASES = new Map([
  [
    'row-scale',
    () =>
      new WorkloadBuilder('c')
        .sparse('A', { square: true })
        .dense('X', { rows: 'A.rows', cols: 5, generate: 'random' })
        .op('y', 'row-scale', ['A', 'X'])
        .output('y')
        .build(),
  ],
]);
defineOperator(rowScaleSpec({ devices: { ...rowScaleSpec().devices, 'cgra-sim': rowScaleSpec().devices.cpu! } }));
afterAll(() => undefineOperator('row-scale'));

describe.each(
  operatorKinds()
    .filter((k) => !k.builtin)
    .map((k) => [k.name, k] as const),
)('user operator %s', (name, kind) => {
  it('equals its reference on every device it runs on, whole and split', async () => {
    const workload = CASES.get(name);
    expect(workload, `a conformance case for ${name}`).toBeDefined();
    for (const precision of ['f32', 'f64'] as const) {
      const bound = bindWorkload(workload!(), kroneckerGraph({ scale: 8, seed: 5 }), { precision });
      const values = referenceValues(bound);
      const op = bound.ops[0]!;
      const want = values[op.output] as DenseMatrix;
      const x = op.operands.map((i) => values[i]!);
      const devices = (await conformanceDevices()).filter((d) => kind.runsOn?.(d) ?? true);
      expect(devices.length).toBeGreaterThan(0);
      for (const device of devices) {
        for (const [b, e] of [[0, op.units] as [number, number], ...splitRanges(op.units)]) {
          const { output } = await runPiece(bound, op, device, x, b, e);
          const got = output as DenseMatrix;
          expect([got.rows, got.cols, got.precision], `${device.name} [${b}, ${e})`).toEqual([e - b, want.cols, precision]);
          expect(Array.from(got.data), `${device.name} [${b}, ${e})`).toEqual(Array.from(want.data.subarray(b * want.cols, e * want.cols)));
        }
      }
    }
  });
});
