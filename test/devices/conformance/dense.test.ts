// Conformance: the dense operators (gemm, relu, affine, add, reduce partials, sddmm) of every
// implementation against the TypeScript reference, both precisions, split row ranges, edge cases
// (no rows, one column, NaN and -0 where the operator passes them) and bad input.

import { describe, expect, it } from 'vitest';
import { CsrMatrix } from '../../../src/data/csr.js';
import { DenseMatrix } from '../../../src/data/dense.js';
import { InvalidArgumentError } from '../../../src/errors.js';
import { checkGemm, checkMap, checkReduce, checkSddmm, DENSE_IMPLEMENTATIONS, denseOf } from './dense-harness.js';
import { family, splitRanges } from './harness.js';

describe.each(DENSE_IMPLEMENTATIONS.map((d) => [d.name, d] as const))('%s: dense operators', (_, impl) => {
  for (const precision of ['f32', 'f64'] as const) {
    it(`gemm ${precision}: GNN shapes, odd shapes, split rows`, async () => {
      for (const [m, k, n] of [
        [300, 16, 16],
        [257, 64, 64],
        [130, 37, 19],
        [64, 128, 256],
        [7, 1, 5],
        [50, 3, 1],
        // One vector a strip where a single vector holds the row (8 FP64 or 16 FP32 lanes with
        // AVX-512, half that with AVX2): exactly, and one column past it.
        [97, 24, 8],
        [61, 10, 17],
      ] as const) {
        await checkGemm(impl, denseOf(m, k, precision, m + k), denseOf(k, n, precision, n + 7));
      }
      // Big enough to go to the pool in several blocks, with ranges that split them.
      const x = denseOf(4099, 32, precision, 1);
      const w = denseOf(32, 48, precision, 2);
      for (const range of splitRanges(x.rows)) await checkGemm(impl, x, w, range);
      // Narrow enough that OpenBLAS's small-matrix kernels bound the blocks (122 rows of 128 x 64):
      // 11 blocks, the last one short.
      await checkGemm(impl, denseOf(1301, 128, precision, 3), denseOf(128, 64, precision, 4));
    });

    it(`gemm ${precision}: no rows, no inner dimension, no columns, NaN`, async () => {
      await checkGemm(impl, denseOf(0, 8, precision, 1), denseOf(8, 4, precision, 2));
      await checkGemm(impl, denseOf(6, 0, precision, 1), denseOf(0, 4, precision, 2));
      await checkGemm(impl, denseOf(6, 3, precision, 1), denseOf(3, 0, precision, 2));
      await checkGemm(impl, denseOf(9, 4, precision, 1, true), denseOf(4, 5, precision, 2));
    });

    it(`relu, affine and add ${precision}: bit for bit, NaN and -0 kept, split rows`, async () => {
      for (const [rows, cols] of [
        [1000, 17],
        [70000, 3],
        [5, 1],
        [0, 4],
      ] as const) {
        const x = denseOf(rows, cols, precision, rows + cols, rows > 0);
        const y = denseOf(rows, cols, precision, 99);
        for (const range of rows > 0 ? splitRanges(rows) : [[0, 0] as const]) {
          await checkMap(impl, x, { op: 'relu' }, range);
          await checkMap(impl, x, { op: 'affine', scale: 0.85, shift: 0.15 / 7 }, range);
          await checkMap(impl, x, { op: 'add', y }, range);
        }
      }
    });

    it(`reduce partials ${precision}: sum, max, norm2 over split rows`, async () => {
      for (const [rows, cols] of [
        [40000, 8],
        // Rows left over after the kernel's tiles of 64 rows and groups of four; columns beyond its
        // vectors; blocks of every width (136: a full block of 16 eight-lane vectors and one more;
        // 70: four-lane vectors and two columns left).
        [33333, 3],
        [2001, 13],
        [1037, 136],
        [515, 70],
        [129, 64],
        [300, 1],
        [0, 5],
      ] as const) {
        const x = denseOf(rows, cols, precision, rows + 3);
        for (const op of ['sum', 'max', 'norm2'] as const) {
          for (const range of rows > 0 ? splitRanges(rows) : [[0, 0] as const]) await checkReduce(impl, x, op, range);
        }
      }
      await checkReduce(impl, denseOf(100, 4, precision, 5, true), 'max');
    });

    it(`sddmm ${precision}: pattern and weighted matrices, split rows`, async () => {
      const pattern = family('kronecker (power law, undirected)');
      await checkSddmm(impl, pattern, denseOf(pattern.rows, 16, precision, 1), denseOf(pattern.cols, 16, precision, 2));
      const weighted = family(precision === 'f32' ? 'kronecker (directed, f32 weights)' : 'erdos-renyi (directed, f64 weights)');
      const u = denseOf(weighted.rows, 13, precision, 3);
      const v = denseOf(weighted.cols, 13, precision, 4);
      for (const range of splitRanges(weighted.rows)) await checkSddmm(impl, weighted, u, v, range);
      await checkSddmm(impl, weighted, denseOf(weighted.rows, 1, precision, 5), denseOf(weighted.cols, 1, precision, 6));
    });
  }

  it('bad input: typed errors naming the function and the value', async () => {
    const x = denseOf(4, 3, 'f32', 1);
    await expect(impl.gemm(x, denseOf(4, 2, 'f32', 2))).rejects.toThrow(new RegExp(`^${impl.fn('gemm')}: x is 4x3 and w is 4x2`));
    await expect(impl.gemm(x, denseOf(3, 2, 'f64', 2))).rejects.toThrow(InvalidArgumentError);
    await expect(impl.relu(x, [2, 9])).rejects.toThrow(new RegExp(`^${impl.fn('relu')}: rows \\[2, 9\\) is not a range within \\[0, 4\\]`));
    await expect(impl.affine(x, NaN, 0)).rejects.toThrow(new RegExp(`^${impl.fn('affine')}: scale`));
    await expect(impl.add(x, denseOf(4, 2, 'f32', 3))).rejects.toThrow(new RegExp(`^${impl.fn('add')}: x is 4x3 but y is 4x2`));
    await expect(impl.reducePartial(x, 'mean' as 'sum')).rejects.toThrow(new RegExp(`^${impl.fn('reducePartial')}: op`));
    await expect(impl.relu({ rows: 1 } as unknown as DenseMatrix)).rejects.toThrow(new RegExp(`^${impl.fn('relu')}: x must be a DenseMatrix`));
    const a = family('grid (road-like)');
    await expect(impl.sddmm(a, denseOf(a.rows, 4, 'f32', 1), denseOf(a.cols + 1, 4, 'f32', 2))).rejects.toThrow(new RegExp(`^${impl.fn('sddmm')}: a is `));
    // A result too large for f32 is refused and its entry named, as the reference does.
    const big = new DenseMatrix(2, 1, new Float32Array([3e38, 3e38]));
    const pair = new CsrMatrix({ rows: 2, cols: 2, rowPtr: new Int32Array([0, 1, 2]), colIdx: new Int32Array([1, 0]) });
    await expect(impl.sddmm(pair, big, big)).rejects.toThrow(new RegExp(`^${impl.fn('sddmm')}: entry \\(0, 1\\) = Infinity is not finite in f32`));
  });
});
