// gpu-sim computes the true result: every operator equals the TypeScript reference.

import { describe, expect, it } from 'vitest';
import { DenseMatrix } from '../../../src/data/dense.js';
import { gridGraph, kroneckerGraph } from '../../../src/generators/index.js';
import { bfsReference, msbfsReference } from '../../../src/kernels/reference.js';
import { firstDifference, firstSpmmMismatch } from '../../support/compare.js';
import { randomDense, skewedMatrix } from '../../support/random.js';
import { gpuSim } from './helpers.js';

describe('gpu-sim results equal the reference', () => {
  const gpu = gpuSim();

  for (const precision of ['f32', 'f64'] as const) {
    for (const values of ['pattern', precision] as const) {
      for (const k of [1, 3, 8, 40]) {
        it(`spmm ${precision} ${values} k=${k}, full and a row range`, async () => {
          const a = skewedMatrix(300, 200, 4000, 7 + k, values);
          const x = randomDense(200, k, precision, 3);
          const full = await gpu.run({ kind: 'spmm' }, { a, x });
          expect(full.output.precision).toBe(precision);
          expect(firstSpmmMismatch(a, x.data, k, full.output.data)).toBe(-1);
          const part = await gpu.run({ kind: 'spmm' }, { a, x }, [17, 251]);
          expect(firstSpmmMismatch(a, x.data, k, part.output.data, 17, 251)).toBe(-1);
          expect(full.source).toBe('simulated');
          expect(full.energySource).toBe('simulated');
          expect(full.seconds).toBeGreaterThan(0);
          expect(full.joules).toBeGreaterThan(0);
        });
      }
    }
  }

  it('spmv', async () => {
    const a = skewedMatrix(500, 400, 6000, 11, 'f64');
    const x = randomDense(400, 1, 'f64', 5);
    const r = await gpu.run({ kind: 'spmv' }, { a, x });
    expect(firstSpmmMismatch(a, x.data, 1, r.output.data)).toBe(-1);
  });

  it('bfs depths on a power-law graph (bottom-up levels) and a road-like grid', async () => {
    for (const graph of [kroneckerGraph({ scale: 12, seed: 3 }), gridGraph({ rows: 40, cols: 50, deleteFraction: 0.2, seed: 4 })]) {
      for (const source of [0, 77]) {
        const r = await gpu.run({ kind: 'bfs', source }, { graph });
        const ref = bfsReference(graph, source);
        expect(firstDifference(r.output.depth, ref)).toBe(-1);
        const counts = new Map<number, number>();
        for (const d of ref) if (d >= 0) counts.set(d, (counts.get(d) ?? 0) + 1);
        expect(Array.from(r.output.frontier)).toEqual([...counts.keys()].sort((p, q) => p - q).map((d) => counts.get(d)));
      }
    }
    const kron = await gpu.run({ kind: 'bfs', source: 0 }, { graph: kroneckerGraph({ scale: 12, seed: 3 }) });
    expect(kron.counters['bottomUpLevels']).toBeGreaterThan(0);
  });

  it('bfs on a directed graph uses the in-edges for bottom-up steps', async () => {
    const graph = kroneckerGraph({ scale: 11, seed: 9, directed: true });
    const r = await gpu.run({ kind: 'bfs', source: 1 }, { graph });
    expect(firstDifference(r.output.depth, bfsReference(graph, 1))).toBe(-1);
  });

  it('msbfs over a range of sources, more than 64 of them', async () => {
    const graph = kroneckerGraph({ scale: 10, seed: 5 });
    const sources = Int32Array.from({ length: 90 }, (_, i) => (i * 37) % graph.rows);
    const r = await gpu.run({ kind: 'msbfs', sources }, { graph }, [3, 83]);
    expect(firstDifference(r.output.depths, msbfsReference(graph, sources.subarray(3, 83)))).toBe(-1);
  });

  it('empty work: zero rows, k = 0 and an empty matrix cost nothing and do not crash', async () => {
    const a = skewedMatrix(50, 40, 300, 2, 'f32');
    const none = await gpu.run({ kind: 'spmm' }, { a, x: DenseMatrix.zeros(40, 0, 'f32') });
    expect(none.output.data.length).toBe(0);
    expect(none.seconds).toBe(0);
    const rows = await gpu.run({ kind: 'spmm' }, { a, x: randomDense(40, 4, 'f32', 1) }, [10, 10]);
    expect(rows.output.rows).toBe(0);
    const empty = skewedMatrix(0, 0, 0, 1, 'f32');
    const e = await gpu.run({ kind: 'spmm' }, { a: empty, x: DenseMatrix.zeros(0, 4, 'f32') });
    expect(e.output.rows).toBe(0);
  });
});
