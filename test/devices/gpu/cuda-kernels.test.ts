// The CUDA kernels on a real GPU (skipped where there is none): both SpMM strategies and the
// data-aware choice, every BFS direction and multi-source batches, against the TypeScript
// references; column indices changed after validation are caught by the kernels themselves.

import { describe, expect, it } from 'vitest';
import { CsrMatrix } from '../../../src/data/csr.js';
import type { DenseMatrix } from '../../../src/data/dense.js';
import { InvalidArgumentError } from '../../../src/errors.js';
import { cudaAddon, cudaProbe, SPMM_STRATEGIES } from '../../../src/devices/backends/gpu.js';
import { inEdgesOf } from '../../../src/kernels/in-edges.js';
import { callNative } from '../../../src/kernels/native-call.js';
import { bfsReference, msbfsReference } from '../../../src/kernels/reference.js';
import { firstDifference, firstSpmmMismatch } from '../../support/compare.js';
import { family, FAMILIES, features, sourcesOf, splitRanges } from '../conformance/harness.js';

const available = cudaProbe().available;

/** One row holding a third of the nonzeros: the input row split serialises on. */
function star(n: number): CsrMatrix {
  const rows: number[][] = [];
  for (let r = 0; r < n; r++) rows.push(r === 7 ? Array.from({ length: n }, (_, c) => c) : [r, (r * 31 + 5) % n]);
  const rowPtr = new Int32Array(n + 1);
  const cols: number[] = [];
  rows.forEach((cs, r) => {
    const sorted = [...new Set(cs)].sort((a, b) => a - b);
    cols.push(...sorted);
    rowPtr[r + 1] = cols.length;
  });
  return new CsrMatrix({ rows: n, cols: n, rowPtr, colIdx: Int32Array.from(cols) });
}

async function gpuSpmm(a: CsrMatrix, x: DenseMatrix, strategy: number, range: readonly [number, number] = [0, a.rows]) {
  const [b, e] = range;
  const y = x.precision === 'f32' ? new Float32Array((e - b) * x.cols) : new Float64Array((e - b) * x.cols);
  const call = x.cols === 1 ? cudaAddon().gpuSpmv : cudaAddon().gpuSpmm;
  const r = await callNative('test', () => call(a.rows, a.cols, a.rowPtr, a.colIdx, a.values ?? null, x.data, x.cols, y, b, e, strategy));
  return { y, r };
}

describe.skipIf(!available)('CUDA SpMM strategies', () => {
  const inputs: [string, CsrMatrix][] = [...Object.keys(FAMILIES).map((n) => [n, family(n)] as [string, CsrMatrix]), ['star', star(3000)]];
  for (const [name, a] of inputs) {
    it(`${name}: row split and nnz split both equal the reference`, async () => {
      // Scalar loads (k = 1, 3, 8) and vector loads (float4 from k = 32, double2 from k = 16),
      // with full and partial lane groups (k = 36: 9 float4 columns; k = 20: 10 double2 columns).
      for (const [k, precision] of [
        [1, 'f32'],
        [1, 'f64'],
        [3, 'f64'],
        [8, 'f32'],
        [32, 'f32'],
        [36, 'f32'],
        [128, 'f32'],
        [20, 'f64'],
        [128, 'f64'],
      ] as const) {
        const x = features(a, k, precision);
        for (const strategy of [SPMM_STRATEGIES['row-split'], SPMM_STRATEGIES['nnz-split']]) {
          const { y, r } = await gpuSpmm(a, x, strategy);
          expect(r.strategy).toBe(strategy);
          const bad = firstSpmmMismatch(a, x.data, k, y, 0, a.rows);
          expect(bad, `${name} k=${k} ${precision} strategy ${strategy}: first mismatch at ${bad}`).toBe(-1);
        }
      }
    });
  }

  it('row ranges under the nnz split join to the full product', async () => {
    const a = family('kronecker (power law, undirected)');
    const x = features(a, 16, 'f32');
    for (const range of splitRanges(a.rows)) {
      const { y } = await gpuSpmm(a, x, SPMM_STRATEGIES['nnz-split'], range);
      expect(firstSpmmMismatch(a, x.data, 16, y, range[0], range[1])).toBe(-1);
    }
  });

  it('chooses the nnz split for one dominant row and the row split for a road-like grid', async () => {
    const s = star(20000);
    expect((await gpuSpmm(s, features(s, 32, 'f32'), SPMM_STRATEGIES.auto)).r.strategy).toBe(SPMM_STRATEGIES['nnz-split']);
    const g = family('grid (road-like)');
    expect((await gpuSpmm(g, features(g, 32, 'f32'), SPMM_STRATEGIES.auto)).r.strategy).toBe(SPMM_STRATEGIES['row-split']);
  });

  it('a column index changed after validation is caught on the GPU and named', async () => {
    const a = family('grid (road-like)');
    const colIdx = a.colIdx.slice();
    colIdx[5] = a.cols + 3;
    const x = features(a, 4, 'f32');
    const y = new Float32Array(a.rows * 4);
    for (const strategy of [1, 2]) {
      const err = await callNative('test', () => cudaAddon().gpuSpmm(a.rows, a.cols, a.rowPtr, colIdx, null, x.data, 4, y, 0, a.rows, strategy)).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(InvalidArgumentError);
      expect((err as Error).message).toMatch(new RegExp(`colIdx\\[5\\] = ${a.cols + 3} is outside \\[0, ${a.cols}\\)`));
    }
    // A search reads only the edges it reaches (as on the CPU): spoil the first edge of a source
    // that has one (the grid's vertex 0 lost both of its edges to the deletions).
    let source = 0;
    while (a.rowStart(source + 1) === a.rowStart(source)) source++;
    const at = a.rowStart(source);
    const spoilt = a.colIdx.slice();
    spoilt[at] = -2;
    const depth = new Int32Array(a.rows);
    for (const direction of [1, 0] as const) {
      const bfsErr = await callNative('test', () => cudaAddon().gpuBfs(a.rows, a.rowPtr, spoilt, a.rowPtr, spoilt, source, depth, direction, 15, 18)).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(bfsErr).toBeInstanceOf(InvalidArgumentError);
      expect((bfsErr as Error).message).toMatch(new RegExp(`colIdx\\[${at}\\] = -2 of the graph is outside`));
    }
  });
});

describe.skipIf(!available)('CUDA BFS', () => {
  for (const name of Object.keys(FAMILIES)) {
    it(`${name}: every direction gives the reference depths`, async () => {
      const g = family(name);
      const inEdges = inEdgesOf('test', g, undefined);
      for (const source of sourcesOf(g, 3)) {
        const want = bfsReference(g, source);
        for (const direction of [0, 1, 2] as const) {
          const depth = new Int32Array(g.rows);
          const r = await callNative('test', () =>
            cudaAddon().gpuBfs(g.rows, g.rowPtr, g.colIdx, inEdges.rowPtr, inEdges.colIdx, source, depth, direction, 15, 18),
          );
          expect(firstDifference(depth, want), `${name} from ${source}, direction ${direction}`).toBe(-1);
          expect(r.frontier.length).toBe(r.bottomUp.length + 1);
          if (direction === 2) expect(r.bottomUp.every((b) => b === 1)).toBe(true);
          if (direction === 1) expect(r.bottomUp.every((b) => b === 0)).toBe(true);
        }
      }
    });
  }

  it('multi-source batches (130 sources: three words of 64) equal the reference', async () => {
    const g = family('kronecker (directed, f32 weights)');
    const inEdges = inEdgesOf('test', g, undefined);
    const sources = Int32Array.from(sourcesOf(g, 130));
    const depths = new Int32Array(sources.length * g.rows);
    await callNative('test', () => cudaAddon().gpuMsbfs(g.rows, g.rowPtr, g.colIdx, inEdges.rowPtr, inEdges.colIdx, sources, depths));
    expect(firstDifference(depths, msbfsReference(g, sources))).toBe(-1);
  });
});
