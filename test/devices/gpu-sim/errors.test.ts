// Bad input is refused with InvalidArgumentError naming the function: in TypeScript before the
// simulator runs, and in the simulator for arrays corrupted after validation.

import { expect, it } from 'vitest';
import { CsrMatrix } from '../../../src/data/csr.js';
import { DenseMatrix } from '../../../src/data/dense.js';
import { InvalidArgumentError } from '../../../src/errors.js';
import { gpuSimAddon } from '../../../src/devices/backends/gpu-sim.js';
import { specValues } from '../../../src/devices/spec.js';
import { randomDense, skewedMatrix } from '../../support/random.js';
import { gpuSim, pathGraph } from './helpers.js';

it('refuses mismatched shapes and bad sources in TypeScript, naming the device run', async () => {
  const gpu = gpuSim();
  const a = skewedMatrix(20, 10, 50, 1, 'f32');
  await expect(gpu.run({ kind: 'spmm' }, { a, x: DenseMatrix.zeros(11, 2, 'f32') })).rejects.toThrow(InvalidArgumentError);
  await expect(gpu.run({ kind: 'spmm' }, { a, x: DenseMatrix.zeros(11, 2, 'f32') })).rejects.toThrow(/^gpu0\.run: /);
  await expect(gpu.run({ kind: 'bfs', source: 9 }, { graph: pathGraph(5) })).rejects.toThrow(/^gpu0\.run: .*source/);
});

it('a column index corrupted after validation is caught by the simulator, naming gpuSimSpmm', async () => {
  const gpu = gpuSim();
  const a = skewedMatrix(64, 32, 400, 2, 'f64');
  a.colIdx[a.nnz - 1] = 1_000_000;
  const run = gpu.run({ kind: 'spmm' }, { a, x: randomDense(32, 4, 'f64', 1) });
  await expect(run).rejects.toThrow(InvalidArgumentError);
  await expect(gpu.run({ kind: 'spmm' }, { a, x: randomDense(32, 4, 'f64', 1) })).rejects.toThrow(/^gpuSimSpmm: colIdx\[\d+\] = 1000000/);
});

it('corrupted graph arrays are caught by the BFS simulators, naming them', async () => {
  const gpu = gpuSim();
  const g = pathGraph(50);
  g.colIdx[10] = -3;
  await expect(gpu.run({ kind: 'bfs', source: 0 }, { graph: g })).rejects.toThrow(/^gpuSimBfs: colIdx\[10\] = -3/);
  await expect(gpu.run({ kind: 'msbfs', sources: Int32Array.of(0, 1) }, { graph: g })).rejects.toThrow(/^gpuSimMsbfs: colIdx\[10\] = -3/);
  const h = pathGraph(50);
  (h.rowPtr as Int32Array)[20] = 9999;
  await expect(gpu.run({ kind: 'bfs', source: 0 }, { graph: h })).rejects.toThrow(/^gpuSimBfs: rowPtr/);
});

it('the native entry points refuse a missing or non-positive parameter, naming themselves', async () => {
  const gpu = gpuSim();
  const a = new CsrMatrix({ rows: 1, cols: 1, rowPtr: Int32Array.of(0, 1), colIdx: Int32Array.of(0) });
  const x = new Float32Array(1);
  const y = new Float32Array(1);
  const params = { ...specValues(gpu.spec), dramGbs: 0 };
  const addon = gpuSimAddon();
  expect(() => addon.gpuSimSpmm(1, 1, a.rowPtr, a.colIdx, null, x, 1, y, 0, 1, params)).toThrow(/^gpuSimSpmm: params\.dramGbs/);
  const { sms: _, ...missing } = specValues(gpu.spec);
  expect(() => addon.gpuSimSpmv(1, 1, a.rowPtr, a.colIdx, null, x, 1, y, 0, 1, missing)).toThrow(/^gpuSimSpmv: params\.sms/);
});
