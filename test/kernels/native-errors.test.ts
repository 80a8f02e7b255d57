// Bad calls reject with typed errors naming the function and the value; arrays corrupted after
// validation are caught by the native bounds checks instead of being read out of bounds.

import { describe, expect, it } from 'vitest';
import { CsrMatrix } from '../../src/data/csr.js';
import { symmetrize } from '../../src/data/convert.js';
import { DenseMatrix } from '../../src/data/dense.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { bfs } from '../../src/kernels/bfs.js';
import { msbfs } from '../../src/kernels/msbfs.js';
import { spmm } from '../../src/kernels/spmm.js';
import { spmv } from '../../src/kernels/spmv.js';
import { nativeAddon } from '../../src/native/addon.js';
import { randomDense, skewedMatrix } from '../support/random.js';

function fresh(): CsrMatrix {
  return skewedMatrix(2000, 2000, 20_000, 3, 'f32');
}

async function rejection(p: Promise<unknown>): Promise<InvalidArgumentError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(InvalidArgumentError);
  return e as InvalidArgumentError;
}

describe('kernel argument errors', () => {
  it('spmm: wrong shapes, ranges, outputs and options', async () => {
    const a = fresh();
    const x = randomDense(a.cols, 4, 'f32', 1);
    expect((await rejection(spmm(a, randomDense(10, 4, 'f32', 1)))).message).toMatch(/^spmm: x has 10 rows/);
    expect((await rejection(spmm(a, x, { rows: [5, 3] }))).message).toMatch(/^spmm: rows \[5, 3\)/);
    expect((await rejection(spmm(a, x, { rows: [0, 2001] }))).message).toMatch(/2001/);
    expect((await rejection(spmm(a, x, { out: DenseMatrix.zeros(2000, 4, 'f64') }))).message).toMatch(/^spmm: out is/);
    const e = await rejection(spmm(a, x, { rowz: [0, 1] } as never));
    expect(e.message).toMatch(/unknown option "rowz" \(did you mean "rows"\?\)/);
    expect(e.code).toBe('ERR_INVALID_ARGUMENT');
    await rejection(spmm({} as never, x));
    await rejection(spmm(a, new Float32Array(4) as never));
  });

  it('spmv: NaN and wrong lengths', async () => {
    const a = fresh();
    const x = new Float64Array(a.cols);
    x[17] = NaN;
    expect((await rejection(spmv(a, x))).message).toBe('spmv: x[17] = NaN is not finite');
    await rejection(spmv(a, new Float64Array(3)));
    await rejection(spmv(a, new Float64Array(a.cols), { out: new Float32Array(a.rows) }));
  });

  it('bfs and msbfs: bad sources, directions and options', async () => {
    const g = skewedMatrix(100, 100, 400, 2, 'pattern');
    expect((await rejection(bfs(g, 100))).message).toMatch(/^bfs: source must be in \[0, 99\], got 100/);
    await rejection(bfs(g, -1));
    await rejection(bfs(g, 1.5));
    await rejection(bfs(g, NaN));
    expect((await rejection(bfs(g, 0, { direction: 'bottomup' as never }))).message).toMatch(/did you mean "bottom-up"/);
    await rejection(bfs(g, 0, { alpha: 0 }));
    await rejection(bfs(skewedMatrix(10, 20, 30, 1, 'pattern'), 0));
    expect((await rejection(msbfs(g, [1, 200]))).message).toMatch(/^msbfs: sources\[1\] = 200/);
    const empty = new CsrMatrix({ rows: 0, cols: 0, rowPtr: Int32Array.of(0), colIdx: new Int32Array(0) });
    expect((await rejection(bfs(empty, 0))).message).toMatch(/no vertices/);
  });
});

describe('arrays corrupted after validation', () => {
  it('spmm rejects an out-of-range column index instead of reading past x', async () => {
    const a = fresh();
    const x = randomDense(a.cols, 8, 'f32', 2);
    a.colIdx[12_345] = 1 << 30;
    expect((await rejection(spmm(a, x))).message).toMatch(/^spmm: colIdx\[12345\] = 1073741824 is outside \[0, 2000\)/);
    a.colIdx[12_345] = -5;
    await rejection(spmm(a, x));
    await rejection(spmv(a, new Float32Array(a.cols)));
  });

  it('spmm rejects non-monotone or oversized row pointers', async () => {
    const a = fresh();
    const x = randomDense(a.cols, 8, 'f64', 2);
    (a.rowPtr as Int32Array)[1000] = 1 << 30;
    expect((await rejection(spmm(a, x))).message).toMatch(/rowPtr\[1000\]/);
    (a.rowPtr as Int32Array)[1000] = -1;
    await rejection(spmm(a, x));
  });

  it('bfs and msbfs reject corrupted graphs (native checks, in TS-trusted symmetric graphs too)', async () => {
    for (const symmetric of [false, true]) {
      for (const direction of ['top-down', 'bottom-up'] as const) {
        const base = skewedMatrix(3000, 3000, 30_000, 4, 'pattern');
        const g = symmetric ? symmetrize(base) : base;
        // Row 0 (the source, read top-down) and row 5 (unvisited, read bottom-up) hold bad indices.
        g.colIdx.fill(1 << 29, g.rowStart(0), g.rowStart(1));
        g.colIdx.fill(1 << 29, g.rowStart(5), g.rowStart(6));
        expect((await rejection(bfs(g, 0, { direction }))).message).toMatch(/^bfs: colIdx\[\d+\] = 536870912/);
        g.colIdx.fill(0, g.rowStart(0), g.rowStart(1));
        g.colIdx.fill(0, g.rowStart(5), g.rowStart(6));
        (g.rowPtr as Int32Array)[10] = 99_999_999;
        expect((await rejection(bfs(g, 10, { direction }))).message).toMatch(/^bfs: rowPtr/);
        expect((await rejection(msbfs(g, [0, 10, 20]))).message).toMatch(/^msbfs: rowPtr/);
      }
    }
  });

  it('the raw addon refuses wrong types and lengths synchronously with a coded error', () => {
    const addon = nativeAddon();
    const rp = Int32Array.of(0, 1);
    const ci = Int32Array.of(0);
    const call =
      (...args: unknown[]) =>
      () =>
        (addon.spmm as (...a: unknown[]) => unknown)(...args);
    expect(call(1, 1, rp, ci, null, new Float32Array(1), 1, new Float32Array(2), 0, 1)).toThrow(/y has length 2/);
    expect(call(1, 1, rp, ci, null, new Float32Array(1), 1, new Float64Array(1), 0, 1)).toThrow(/same element type/);
    expect(call(1, 1, [0, 1], ci, null, new Float32Array(1), 1, new Float32Array(1), 0, 1)).toThrow(/rowPtr must be a typed array/);
    expect(call(1, 1, rp, ci, null, new Float32Array(1), 2 ** 40, new Float32Array(1), 0, 1)).toThrow(/k must be an integer/);
    expect(call('1')).toThrow(/rows must be a number/);
    const shared = new Float32Array(4);
    expect(call(2, 2, Int32Array.of(0, 1, 2), Int32Array.of(0, 1), null, shared.subarray(0, 2), 1, shared.subarray(1, 3), 0, 2)).toThrow(/overlap/);
    try {
      call(1)();
    } catch (e) {
      expect((e as { code?: string }).code).toBe('ERR_INVALID_ARGUMENT');
    }
  });
});

describe('non-finite inputs reaching the kernels', () => {
  it('spmm names a NaN or infinity written into x after validation, and reports overflow', async () => {
    const a = fresh();
    const x = randomDense(a.cols, 8, 'f64', 5);
    x.data[3 * 8 + 2] = Infinity;
    const e = await rejection(spmm(a, x));
    expect(e.message).toBe('spmm: x element (3, 2) = Infinity is not finite');
    const big = new DenseMatrix(a.cols, 4, new Float32Array(a.cols * 4).fill(3e38));
    expect((await rejection(spmm(a, big))).message).toMatch(/^spmm: the result is not finite in row \d+ \(overflow/);
  });
});
