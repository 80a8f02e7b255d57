// Small seeded random inputs for tests, independent of the library's generators so that a bug
// there cannot hide a bug in a kernel.

import { cooToCsr } from '../../src/data/coo.js';
import type { CsrMatrix } from '../../src/data/csr.js';
import { DenseMatrix, type Precision } from '../../src/data/dense.js';

export function lcg(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** A rows x cols matrix with skewed row lengths (some rows far longer than the mean). */
export function skewedMatrix(rows: number, cols: number, entries: number, seed: number, values: Precision | 'pattern' = 'f64'): CsrMatrix {
  const rnd = lcg(seed);
  const r = new Int32Array(entries);
  const c = new Int32Array(entries);
  for (let i = 0; i < entries; i++) {
    r[i] = Math.min(rows - 1, Math.floor(rnd() ** 3 * rows));
    c[i] = Math.floor(rnd() * cols);
  }
  let v: Float32Array | Float64Array | undefined;
  if (values !== 'pattern') {
    v = values === 'f32' ? new Float32Array(entries) : new Float64Array(entries);
    for (let i = 0; i < entries; i++) v[i] = rnd() * 2 - 1;
  }
  return cooToCsr({ rows, cols, rowIdx: r, colIdx: c, values: v }, { duplicates: 'first' });
}

export function randomDense(rows: number, cols: number, precision: Precision, seed: number): DenseMatrix {
  const rnd = lcg(seed);
  const data = precision === 'f32' ? new Float32Array(rows * cols) : new Float64Array(rows * cols);
  for (let i = 0; i < data.length; i++) data[i] = rnd() * 2 - 1;
  return new DenseMatrix(rows, cols, data);
}
