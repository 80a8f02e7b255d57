// Bad input is refused with an InvalidArgumentError naming the function, also when arrays were
// corrupted after validation (the simulator checks every index it reads); empty inputs run.

import { describe, expect, it } from 'vitest';
import { CsrMatrix } from '../../../src/data/csr.js';
import { DenseMatrix } from '../../../src/data/dense.js';
import { cgraSimBackend } from '../../../src/devices/backends/cgra-sim.js';
import { InvalidArgumentError } from '../../../src/errors.js';
import { skewedMatrix } from '../../support/random.js';
import { cgraDevice } from './helpers.js';

describe('cgra-sim errors and edge cases', () => {
  const device = cgraDevice();

  it('refuses a column index corrupted after validation', async () => {
    const a = skewedMatrix(50, 50, 300, 1, 'f32');
    a.colIdx[7] = 1_000_000;
    const run = device.run({ kind: 'spmm' }, { a, x: DenseMatrix.zeros(50, 4) });
    await expect(run).rejects.toThrow(InvalidArgumentError);
    await expect(device.run({ kind: 'spmm' }, { a, x: DenseMatrix.zeros(50, 4) })).rejects.toThrow(/^cgraSpmm: colIdx\[7\] = 1000000/);
    await expect(device.run({ kind: 'spmv' }, { a, x: DenseMatrix.zeros(50, 1) })).rejects.toThrow(/^cgraSpmv: colIdx\[7\]/);
  });

  it('refuses corrupted graphs in bfs and msbfs', async () => {
    const g = skewedMatrix(50, 50, 300, 2, 'pattern');
    // Reach the corrupted edge: make every vertex's first edge point out of range.
    for (let v = 0; v < 50; v++) if (g.rowLength(v) > 0) g.colIdx[g.rowStart(v)] = -3;
    const inEdges = g; // skip the transpose (it would validate the corrupted arrays)
    await expect(device.run({ kind: 'bfs', source: 0 }, { graph: g, inEdges })).rejects.toThrow(/^cgraBfs: colIdx\[\d+\] = -3/);
    await expect(device.run({ kind: 'msbfs', sources: Int32Array.of(0, 1) }, { graph: g, inEdges })).rejects.toThrow(/^cgraMsbfs: colIdx/);
  });

  it('refuses a bad source or range through checkRun, naming the device', async () => {
    const g = skewedMatrix(50, 50, 300, 2, 'pattern');
    await expect(device.run({ kind: 'bfs', source: 50 }, { graph: g, inEdges: g })).rejects.toThrow(/^cgra0\.run: /);
    await expect(device.run({ kind: 'spmm' }, { a: g, x: DenseMatrix.zeros(50, 2) }, [10, 60])).rejects.toThrow(InvalidArgumentError);
  });

  it('refuses params that break the spec through the native check', async () => {
    const spec = cgraDevice().spec;
    expect(() => cgraSimBackend.create('bad', { ...spec, params: { ...spec.params, memPorts: { value: 99, unit: 'PEs', source: 'x' } } })).toThrow(
      /^cgraSimBackend\.create: memPorts = 99/,
    );
  });

  it('runs empty matrices, k = 0 and zero-row ranges without cycles', async () => {
    const empty = new CsrMatrix({ rows: 0, cols: 5, rowPtr: Int32Array.of(0), colIdx: new Int32Array(0) });
    const r0 = await device.run({ kind: 'spmm' }, { a: empty, x: DenseMatrix.zeros(5, 3) });
    expect((r0.output as DenseMatrix).rows).toBe(0);
    expect(r0.counters['cycles']).toBe(0);
    const a = skewedMatrix(20, 20, 50, 3, 'f64');
    const k0 = await device.run({ kind: 'spmm' }, { a, x: DenseMatrix.zeros(20, 0, 'f64') });
    expect(k0.counters['cycles']).toBe(0);
    const none = await device.run({ kind: 'spmm' }, { a, x: DenseMatrix.zeros(20, 2, 'f64') }, [7, 7]);
    expect(none.joules).toBe(0);
    const noEdges = new CsrMatrix({ rows: 3, cols: 3, rowPtr: Int32Array.of(0, 0, 0, 0), colIdx: new Int32Array(0), symmetric: true });
    const b = await device.run({ kind: 'bfs', source: 2 }, { graph: noEdges });
    expect(b.counters['passes']).toBe(1);
    const m = await device.run({ kind: 'msbfs', sources: new Int32Array(0) }, { graph: noEdges });
    expect(m.counters['cycles']).toBe(0);
  });
});
