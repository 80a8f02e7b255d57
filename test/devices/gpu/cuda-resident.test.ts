// Inputs kept on the GPU (prefetch / release) on a real device (skipped where there is none):
// operators read the resident copies instead of copying, row ranges of a resident matrix give
// the reference result, a buffer is copied once however often it is prefetched and dropped after
// its last release, and the device copy is the one made at prefetch time.

import { afterEach, describe, expect, it } from 'vitest';
import { CsrMatrix } from '../../../src/data/csr.js';
import { cudaProbe, cudaResident, gpuBackend } from '../../../src/devices/backends/gpu.js';
import type { Device } from '../../../src/devices/device.js';
import { loadProfile } from '../../../src/devices/spec.js';
import { UnsupportedError } from '../../../src/errors.js';
import { bfsReference } from '../../../src/kernels/reference.js';
import { firstDifference, firstSpmmMismatch } from '../../support/compare.js';
import { family, features } from '../conformance/harness.js';

const probe = cudaProbe();
const create = (): Device => gpuBackend.create('gpu0', loadProfile('test', 'gpu', 'cuda', gpuBackend.params));

describe.skipIf(probe.available)('prefetch without a CUDA device', () => {
  it("is refused with the probe's reason, and nothing is resident", async () => {
    if (!probe.built) return; // the stub addon has no device to ask; cudaResident() is zero either way
    await expect(create().prefetch!([new Int32Array(4)])).rejects.toThrow(UnsupportedError);
    expect(cudaResident()).toEqual({ buffers: 0, bytes: 0 });
  });
});

describe.skipIf(!probe.available)('inputs resident on a CUDA device', () => {
  const device = create();
  afterEach(async () => {
    await device.dispose();
    expect(cudaResident().bytes).toBe(0);
  });

  it('an SpMM on a prefetched matrix and X copies neither and gives the reference result', async () => {
    const a = family('kronecker (power law, undirected)');
    const x = features(a, 32, 'f32');
    const cold = await device.run({ kind: 'spmm' }, { a, x });
    expect(cold.counters['residentBytes']).toBe(0);
    // A pattern matrix (no values): its column indices and X.
    expect(a.values).toBeUndefined();
    const p = await device.prefetch!([a.colIdx, x.data]);
    expect(p.bytes).toBe(a.colIdx.byteLength + x.data.byteLength);
    expect(cudaResident().buffers).toBe(2);
    const warm = await device.run({ kind: 'spmm' }, { a, x });
    expect(warm.counters['residentBytes']).toBe(p.bytes);
    // Only the rebased row pointers go over now.
    expect(warm.counters['h2dBytes']).toBe((a.rows + 1) * 8);
    expect(firstSpmmMismatch(a, x.data, 32, warm.output.data, 0, a.rows)).toBe(-1);
  });

  it('row ranges of a resident matrix, in FP32 and FP64, give the reference rows', async () => {
    const a = family('banded (FEM-like, f64 values)');
    await device.prefetch!([a.colIdx, a.values!]);
    for (const precision of ['f32', 'f64'] as const) {
      const x = features(a, 8, precision);
      for (const [b, e] of [
        [0, 1],
        [3, a.rows >> 1],
        [a.rows >> 1, a.rows],
        [17, 18],
      ] as const) {
        const r = await device.run({ kind: 'spmm' }, { a, x }, [b, e]);
        expect(r.counters['residentBytes']).toBeGreaterThan(0);
        expect(firstSpmmMismatch(a, x.data, 8, r.output.data, b, e)).toBe(-1);
      }
    }
  });

  it('a BFS on a prefetched graph reads its edges in place', async () => {
    const g = family('grid (road-like)');
    await device.prefetch!([g.colIdx]);
    const r = await device.run({ kind: 'bfs', source: 5 }, { graph: g });
    expect(r.counters['residentBytes']).toBe(g.colIdx.byteLength);
    expect(firstDifference(r.output.depth, bfsReference(g, 5))).toBe(-1);
  });

  it('copies a buffer once however often it is prefetched, and drops it after the last release', async () => {
    const a = family('banded (FEM-like, f64 values)');
    const first = await device.prefetch!([a.colIdx]);
    const second = await device.prefetch!([a.colIdx, a.colIdx]);
    expect(first.bytes).toBe(a.colIdx.byteLength);
    expect(second.bytes).toBe(0);
    expect(cudaResident().buffers).toBe(1);
    await device.release!([a.colIdx]);
    expect(cudaResident().buffers).toBe(1);
    await device.release!([a.colIdx]);
    await device.release!([a.colIdx]);
    expect(cudaResident().buffers).toBe(0);
    const r = await device.run({ kind: 'spmm' }, { a, x: features(a, 4, 'f32') });
    expect(r.counters['residentBytes']).toBe(0);
  });

  it('keeps the copy made at prefetch: a column index spoilt on the host afterwards is never read', async () => {
    const base = family('banded (FEM-like, f64 values)');
    const a = new CsrMatrix({ rows: base.rows, cols: base.cols, rowPtr: base.rowPtr.slice(), colIdx: base.colIdx.slice(), values: base.values!.slice() });
    const x = features(a, 4, 'f64');
    await device.prefetch!([a.colIdx, a.values!]);
    a.colIdx[3] = 1 << 30; // outside the matrix; the device copy still has the old index
    const got = await device.run({ kind: 'spmm' }, { a, x });
    // Against the unspoilt matrix within rounding: the nnz split adds cut rows atomically, so two
    // runs need not agree to the last bit.
    expect(firstSpmmMismatch(base, x.data, 4, got.output.data, 0, base.rows)).toBe(-1);
    await device.release!([a.colIdx, a.values!]);
    // Released, the spoilt host index is read and refused with its position.
    await expect(device.run({ kind: 'spmm' }, { a, x })).rejects.toThrow(/colIdx\[3\] = 1073741824/);
  });
});
