// A user operator's own calibration inputs are what `calibrateOperator` times (one sample each),
// checked first: a list of the wrong operands, or a calibration that throws, is an OperatorError
// naming the operator; a non-function is refused at definition; device-kernel built-ins and devices without
// the operator's code are refused (built-ins the host computes are fitted like user operators).

import { afterAll, expect, it } from 'vitest';
import { buildSystem } from '../../src/devices/system.js';
import { InvalidArgumentError, OperatorError } from '../../src/errors.js';
import { denseFeatures } from '../../src/generators/index.js';
import { calibrateOperator } from '../../src/operators/calibrate-op.js';
import { defineOperator, undefineOperator } from '../../src/operators/define.js';
import { smallGraph } from '../session/session-fixtures.js';
import { rowScaleSpec } from './user-fixtures.js';

const NAMES = ['cal-own', 'cal-wrong', 'cal-throws', 'cal-gpu-only'];
afterAll(() => {
  for (const n of NAMES) undefineOperator(n);
});

const cpuOnly = () => buildSystem({ name: 'cpu', devices: [{ name: 'cpu', backend: 'cpu' }], links: [] }, 'cal');

it('times the operator on its own calibration inputs', async () => {
  const inputs = [8, 9, 10, 11].map((scale) => {
    const g = smallGraph(scale);
    return [g, denseFeatures({ rows: g.rows, cols: 4, seed: scale })];
  });
  defineOperator(rowScaleSpec({ name: 'cal-own', calibration: () => inputs }));
  const system = cpuOnly();
  const fits = await calibrateOperator('cal-own', system, { quick: true });
  expect(fits).toHaveLength(1);
  expect(fits[0]!.kind).toBe('cal-own');
  expect(fits[0]!.samples).toBe(4);
  await system.dispose();
});

it('refuses bad calibration inputs, built-ins, and systems where the operator has no code', async () => {
  const system = cpuOnly();
  defineOperator(rowScaleSpec({ name: 'cal-wrong', calibration: () => [[smallGraph()]] }));
  await expect(calibrateOperator('cal-wrong', system)).rejects.toThrow(OperatorError);
  await expect(calibrateOperator('cal-wrong', system)).rejects.toThrow(/^cal-wrong\.calibration: list 0 must hold 2 operands \(sparse, dense\)/);
  defineOperator(
    rowScaleSpec({
      name: 'cal-throws',
      calibration: () => {
        throw new Error('no inputs today');
      },
    }),
  );
  await expect(calibrateOperator('cal-throws', system)).rejects.toThrow(/^cal-throws\.calibration: threw: no inputs today/);
  expect(() => defineOperator(rowScaleSpec({ name: 'cal-bad', calibration: 5 as never }))).toThrow(InvalidArgumentError);
  expect(() => defineOperator(rowScaleSpec({ name: 'cal-bad', calibration: 5 as never }))).toThrow(/cal-bad: calibration must be a function/);
  await expect(calibrateOperator('spmm', system)).rejects.toThrow(/spmm is a built-in device kernel; `dype calibrate` fits it/);
  const { cpu: _, ...gpuOnly } = rowScaleSpec().devices;
  defineOperator(rowScaleSpec({ name: 'cal-gpu-only', devices: gpuOnly }));
  await expect(calibrateOperator('cal-gpu-only', system)).rejects.toThrow(/cal-gpu-only has no code for a real host device of this system \(cpu\)/);
  await system.dispose();
});
