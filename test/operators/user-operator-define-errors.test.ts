// defineOperator refuses a bad spec before registering anything: a name taken by a built-in or an
// earlier definition, device keys user code cannot run on, unknown fields, missing code.

import { afterAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors.js';
import { defineOperator, undefineOperator } from '../../src/operators/define.js';
import { hasOperator } from '../../src/operators/registry.js';
import { rowScaleSpec } from './user-fixtures.js';

afterAll(() => undefineOperator('row-scale'));

describe('defineOperator', () => {
  it('refuses a name shadowing a built-in', () => {
    expect(() => defineOperator(rowScaleSpec({ name: 'spmm' }))).toThrow(InvalidArgumentError);
    expect(() => defineOperator(rowScaleSpec({ name: 'spmm' }))).toThrow(/^defineOperator: "spmm" is a built-in operator/);
  });

  it('refuses a duplicate name, and takes it again once undefined', () => {
    defineOperator(rowScaleSpec());
    expect(() => defineOperator(rowScaleSpec())).toThrow(/^defineOperator: "row-scale" is already defined/);
    expect(undefineOperator('row-scale')).toBe(true);
    expect(hasOperator('row-scale')).toBe(false);
    defineOperator(rowScaleSpec());
    expect(undefineOperator('spmm')).toBe(false);
  });

  it('refuses unknown device keys, naming the devices it takes', () => {
    const cpu = rowScaleSpec().devices.cpu!;
    expect(() => defineOperator(rowScaleSpec({ name: 'a1', devices: { cpu, gpu_sim: cpu } as never }))).toThrow(
      /^defineOperator: a1: devices\.gpu_sim: not a device user code can run on \(did you mean "gpu-sim"\?\); devices: cpu, gpu-sim, cgra-sim/,
    );
    expect(() => defineOperator(rowScaleSpec({ name: 'a2', devices: { gpu: cpu } as never }))).toThrow(/devices\.gpu: .*a CUDA GPU runs only its own kernels/);
    expect(() => defineOperator(rowScaleSpec({ name: 'a3', devices: {} }))).toThrow(/^defineOperator: a3: devices must give code/);
    expect(() => defineOperator(rowScaleSpec({ name: 'a4', devices: { cpu: 'cpu_kernel' as never } }))).toThrow(
      /^defineOperator: a4: devices\.cpu must be a function, got "cpu_kernel"/,
    );
    expect(['a1', 'a2', 'a3', 'a4'].some(hasOperator)).toBe(false);
  });

  it('refuses unknown fields, bad names, inputs and missing code', () => {
    expect(() => defineOperator({ ...rowScaleSpec({ name: 'b1' }), costs: () => 0 } as never)).toThrow(/unknown field "costs" \(did you mean "cost"\?\)/);
    expect(() => defineOperator(rowScaleSpec({ name: 'Bad Name' }))).toThrow(/^defineOperator: name must be lower-case/);
    expect(() => defineOperator(rowScaleSpec({ name: 'b2', inputs: ['csr'] as never }))).toThrow(/^defineOperator: b2: inputs must be/);
    expect(() => defineOperator(rowScaleSpec({ name: 'b3', reference: undefined as never }))).toThrow(
      /^defineOperator: b3: reference must be a function, got undefined/,
    );
    expect(() => defineOperator(null as never)).toThrow(/^defineOperator: spec must be an object, got null/);
  });
});
