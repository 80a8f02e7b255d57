// concatRows and concatCsrRows join row-range parts given in any order, and only a partition.

import { describe, expect, it } from 'vitest';
import { CsrMatrix } from '../../src/data/csr.js';
import { DenseMatrix } from '../../src/data/dense.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { concatCsrRows, concatRows } from '../../src/workloads/dense-kernels.js';
import { randomCsr } from '../data/helpers.js';
import { randomDense } from '../support/random.js';
import { csr, thrown } from './helpers.js';

function slice(x: DenseMatrix, b: number, e: number): DenseMatrix {
  return new DenseMatrix(e - b, x.cols, x.data.slice(b * x.cols, e * x.cols));
}

describe('concatRows', () => {
  const x = randomDense(10, 3, 'f32', 1);

  it('rebuilds a matrix from parts in any order, empty parts included', () => {
    const parts = [
      { range: [6, 10] as const, matrix: slice(x, 6, 10) },
      { range: [3, 3] as const, matrix: slice(x, 3, 3) },
      { range: [0, 6] as const, matrix: slice(x, 0, 6) },
      { range: [10, 10] as const, matrix: slice(x, 10, 10) },
    ];
    const y = concatRows(parts, 10);
    expect([y.rows, y.cols, y.precision]).toEqual([10, 3, 'f32']);
    expect(y.data).toEqual(x.data);
  });

  it('joins zero rows from empty parts', () => {
    expect(concatRows([{ range: [0, 0], matrix: slice(x, 0, 0) }], 0).data).toHaveLength(0);
  });

  it('refuses gaps and overlaps, naming the rows', () => {
    const gap = thrown(() =>
      concatRows(
        [
          { range: [0, 4], matrix: slice(x, 0, 4) },
          { range: [5, 10], matrix: slice(x, 5, 10) },
        ],
        10,
      ),
    );
    expect(gap).toBeInstanceOf(InvalidArgumentError);
    expect(gap.message).toMatch(/^concatRows: no part covers rows \[4, 5\)/);
    const tail = thrown(() => concatRows([{ range: [0, 4], matrix: slice(x, 0, 4) }], 10));
    expect(tail.message).toMatch(/^concatRows: no part covers rows \[4, 10\)/);
    const overlap = thrown(() =>
      concatRows(
        [
          { range: [0, 6], matrix: slice(x, 0, 6) },
          { range: [5, 10], matrix: slice(x, 5, 10) },
        ],
        10,
      ),
    );
    expect(overlap).toBeInstanceOf(InvalidArgumentError);
    expect(overlap.message).toMatch(/^concatRows: parts\[1\] rows \[5, 10\) overlap parts\[0\]/);
    const twice = thrown(() =>
      concatRows(
        [
          { range: [0, 10], matrix: x },
          { range: [0, 10], matrix: x },
        ],
        10,
      ),
    );
    expect(twice.message).toMatch(/^concatRows: .*overlap/);
  });
});

describe('concatCsrRows', () => {
  it('rebuilds pattern and valued matrices from row slices', () => {
    for (const kind of ['pattern', 'f32', 'f64'] as const) {
      const a = randomCsr(9, 6, 2, { values: kind, density: 0.4 });
      const rows = (b: number, e: number): CsrMatrix => {
        const p0 = a.rowStart(b);
        const p1 = a.rowStart(e);
        return new CsrMatrix({
          rows: e - b,
          cols: a.cols,
          rowPtr: Int32Array.from({ length: e - b + 1 }, (_, r) => a.rowStart(b + r) - p0),
          colIdx: a.colIdx.slice(p0, p1),
          values: a.values?.slice(p0, p1),
        });
      };
      const joined = concatCsrRows(
        [
          { range: [4, 9], matrix: rows(4, 9) },
          { range: [0, 4], matrix: rows(0, 4) },
        ],
        9,
      );
      expect(joined.rows).toBe(9);
      expect(joined.rowPtr).toEqual(a.rowPtr);
      expect(joined.colIdx).toEqual(a.colIdx);
      if (kind === 'pattern') expect(joined.values).toBeUndefined();
      else expect(joined.values).toEqual(a.values);
      expect(joined.sortedColumns).toBe(true);
    }
  });

  it('refuses gaps, overlaps and mixed value kinds', () => {
    const p = csr(3, [[0], [1, 2]]);
    const v = csr(3, [[0], [1, 2]], 'f32');
    const gap = thrown(() =>
      concatCsrRows(
        [
          { range: [0, 2], matrix: p },
          { range: [3, 5], matrix: p },
        ],
        5,
      ),
    );
    expect(gap).toBeInstanceOf(InvalidArgumentError);
    expect(gap.message).toMatch(/^concatCsrRows: no part covers rows \[2, 3\)/);
    const overlap = thrown(() =>
      concatCsrRows(
        [
          { range: [0, 2], matrix: p },
          { range: [1, 3], matrix: p },
        ],
        3,
      ),
    );
    expect(overlap.message).toMatch(/^concatCsrRows: parts\[1\] rows \[1, 3\) overlap/);
    const mixed = thrown(() =>
      concatCsrRows(
        [
          { range: [0, 2], matrix: p },
          { range: [2, 4], matrix: v },
        ],
        4,
      ),
    );
    expect(mixed).toBeInstanceOf(InvalidArgumentError);
    expect(mixed.message).toMatch(/^concatCsrRows: parts\[1\]\.matrix is 2x3 f32 but parts\[0\]\.matrix has 3 pattern columns/);
  });
});
