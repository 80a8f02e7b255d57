// writeMatrixMarket then loadMatrixMarket gives back the same matrix, bit for bit.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cooToCsr } from '../../src/data/coo.js';
import { CsrMatrix } from '../../src/data/csr.js';
import { DenseMatrix } from '../../src/data/dense.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { formatMatrixMarket, loadMatrixMarket, parseMatrixMarket, writeMatrixMarket } from '../../src/io/index.js';
import { expectSameCsr, firstDifference, tempDir } from './helpers.js';

/** Deterministic pseudo-random numbers (mulberry32), so failures reproduce. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const AWKWARD = [0.1 + 0.2, -0, 5e-324, 1.7976931348623157e308, -2.2250738585072014e-308, 1 / 3, 123456789012345680, 1e21, 1e-7, 42];

function randomCsr(rows: number, cols: number, nnz: number, values: 'f64' | 'f32' | 'none', seed: number): CsrMatrix {
  const next = rng(seed);
  const rowIdx = Int32Array.from({ length: nnz }, () => Math.floor(next() * rows));
  const colIdx = Int32Array.from({ length: nnz }, () => Math.floor(next() * cols));
  const raw = Array.from({ length: nnz }, (_, i) => (i < AWKWARD.length ? AWKWARD[i]! : (next() - 0.5) * 10 ** Math.floor(next() * 40 - 20)));
  const F32_MAX = 3.4028234663852886e38;
  const vals =
    values === 'none'
      ? undefined
      : values === 'f32'
        ? Float32Array.from(raw, (v) => (Number.isFinite(Math.fround(v)) ? v : Math.sign(v) * F32_MAX))
        : Float64Array.from(raw);
  return cooToCsr({ rows, cols, rowIdx, colIdx, values: vals }, { duplicates: 'last' });
}

describe('Matrix Market round trip', () => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);

  it('keeps real values exactly, including -0, subnormals and the largest double', async () => {
    const a = randomCsr(300, 200, 5000, 'f64', 1);
    const path = join(dir, 'real.mtx');
    await writeMatrixMarket(path, a);
    expectSameCsr(await loadMatrixMarket(path, { format: 'coordinate' }), a);
  });

  it('keeps float32 values exactly when read back as f32 or as f64', async () => {
    const a = randomCsr(50, 60, 800, 'f32', 2);
    const path = join(dir, 'single.mtx');
    await writeMatrixMarket(path, a);
    expectSameCsr(await loadMatrixMarket(path, { format: 'coordinate', precision: 'f32' }), a);
    const wide = await loadMatrixMarket(path, { format: 'coordinate' });
    expect(firstDifference(wide.values!, a.values!)).toBe(-1);
  });

  it('writes pattern matrices as pattern', async () => {
    const a = randomCsr(40, 70, 300, 'none', 3);
    const path = join(dir, 'pattern.mtx');
    await writeMatrixMarket(path, a, { comment: 'made by a test\nsecond line' });
    const text = readFileSync(path, 'latin1');
    expect(text.startsWith('%%MatrixMarket matrix coordinate pattern general\n% made by a test\n% second line\n40 70 ')).toBe(true);
    expectSameCsr(await loadMatrixMarket(path, { format: 'coordinate' }), a);
  });

  it('writes one triangle of a symmetric matrix and reads the same matrix back', async () => {
    const half = randomCsr(100, 100, 1000, 'f64', 4);
    const rowIdx = new Int32Array(half.nnz);
    for (let r = 0; r < half.rows; r++) rowIdx.fill(r, half.rowStart(r), half.rowStart(r + 1));
    const a = cooToCsr({ rows: 100, cols: 100, rowIdx, colIdx: half.colIdx, values: half.values }, { mirror: 'symmetric' });
    const path = join(dir, 'sym.mtx.gz');
    await writeMatrixMarket(path, a, { symmetric: true });
    const b = await loadMatrixMarket(path, { format: 'coordinate' });
    expect(b.symmetric).toBe(true);
    expectSameCsr(b, a);
  });

  it('refuses symmetric: true for a matrix that is not symmetric, naming the entry', async () => {
    const a = new CsrMatrix({ rows: 2, cols: 2, rowPtr: Int32Array.of(0, 1, 2), colIdx: Int32Array.of(1, 0), values: Float64Array.of(1, 2) });
    expect(() => formatMatrixMarket(a, { symmetric: true })).toThrow(/\(0, 1\) = 1 and \(1, 0\) = 2/);
    const b = new CsrMatrix({ rows: 2, cols: 2, rowPtr: Int32Array.of(0, 1, 1), colIdx: Int32Array.of(1) });
    expect(() => formatMatrixMarket(b, { symmetric: true })).toThrow(/\(0, 1\) is stored and \(1, 0\) is not/);
    await expect(writeMatrixMarket(join(dir, 'no.mtx'), b, { symmetric: true })).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(readFileSync.bind(null, join(dir, 'no.mtx'))).toThrow();
  });

  it('writes dense matrices column-major and reads them back row-major', async () => {
    const d = new DenseMatrix(3, 2, Float64Array.of(1, 2, 3, 4, 0.1, -0));
    expect(formatMatrixMarket(d)).toBe('%%MatrixMarket matrix array real general\n3 2\n1\n3\n0.1\n2\n4\n-0\n');
    const path = join(dir, 'dense.mtx');
    await writeMatrixMarket(path, d);
    const back = await loadMatrixMarket(path, { format: 'array' });
    expect(firstDifference(back.data, d.data)).toBe(-1);
    const s = new DenseMatrix(2, 2, Float32Array.of(1, 2, 2, 3));
    const text = formatMatrixMarket(s, { symmetric: true });
    expect(text).toBe('%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n3\n');
    expect(Array.from(parseMatrixMarket(text, { format: 'array' }).data)).toEqual([1, 2, 2, 3]);
  });

  it('rejects what it cannot write', () => {
    expect(() => formatMatrixMarket({} as never)).toThrow(InvalidArgumentError);
    expect(() => formatMatrixMarket(new DenseMatrix(1, 2, new Float64Array(2)), { symmetric: true })).toThrow(/square/);
    expect(() => formatMatrixMarket(new DenseMatrix(1, 1, new Float64Array(1)), { gzip: true } as never)).toThrow(/unknown option/);
  });
});
