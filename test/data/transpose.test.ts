import { describe, expect, it } from 'vitest';
import { transpose } from '../../src/data/convert.js';
import { CsrMatrix } from '../../src/data/csr.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { denseTranspose, randomCsr, toDense, triples, type ValueKind } from './helpers.js';

const SHAPES: Array<[number, number]> = [
  [0, 0],
  [1, 1],
  [3, 0],
  [5, 7],
  [13, 4],
  [20, 20],
  [1, 30],
];
const KINDS: ValueKind[] = ['pattern', 'f32', 'f64'];

describe('transpose', () => {
  for (const [rows, cols] of SHAPES) {
    for (const kind of KINDS) {
      it(`matches the dense transpose for ${rows}x${cols} ${kind}`, () => {
        for (let seed = 1; seed <= 3; seed++) {
          const a = randomCsr(rows, cols, seed * 101 + rows, { values: kind, density: 0.1 * seed });
          const t = transpose(a);
          expect(t.rows).toBe(cols);
          expect(t.cols).toBe(rows);
          expect(t.sortedColumns).toBe(true);
          expect(t.nnz).toBe(a.nnz);
          expect(Array.from(toDense(t))).toEqual(Array.from(denseTranspose(toDense(a), rows, cols)));
          if (kind === 'pattern') expect(t.values).toBeUndefined();
          else expect(t.values).toBeInstanceOf(kind === 'f32' ? Float32Array : Float64Array);
        }
      });
    }
  }

  it('is an involution on matrices with sorted columns (identical arrays)', () => {
    const a = randomCsr(17, 11, 9, { values: 'f32' });
    const back = transpose(transpose(a));
    expect(back.rowPtr).toEqual(a.rowPtr);
    expect(back.colIdx).toEqual(a.colIdx);
    expect(back.values).toEqual(a.values);
  });

  it('keeps every entry of unsorted rows with duplicates, sorting columns stably', () => {
    const a = randomCsr(12, 9, 4, { values: 'f64', messy: true, density: 0.5 });
    expect(a.sortedColumns).toBe(false);
    const t = transpose(a);
    const swapped = triples(a).map((s) => {
      const [i, j, v] = s.split(',');
      return `${j},${i},${v}`;
    });
    expect(triples(t).sort()).toEqual(swapped.sort());
    // Columns non-decreasing in every row (duplicates stay adjacent).
    for (let i = 0; i < t.rows; i++) {
      for (let p = t.rowStart(i) + 1; p < t.rowStart(i + 1); p++) expect(t.colIdx[p]!).toBeGreaterThanOrEqual(t.colIdx[p - 1]!);
    }
  });

  it('accepts 64-bit row pointers and keeps the symmetric flag', () => {
    const a = randomCsr(8, 8, 5, { wide: true });
    const t = transpose(a);
    expect(Array.from(toDense(t))).toEqual(Array.from(denseTranspose(toDense(a), 8, 8)));
    const s = new CsrMatrix({ rows: 2, cols: 2, rowPtr: Int32Array.of(0, 1, 2), colIdx: Int32Array.of(1, 0), symmetric: true });
    expect(transpose(s).symmetric).toBe(true);
  });

  it('refuses anything but a CsrMatrix', () => {
    expect(() => transpose({ rows: 1 } as unknown as CsrMatrix)).toThrow(InvalidArgumentError);
    expect(() => transpose(null as unknown as CsrMatrix)).toThrow(/^transpose: expected a CsrMatrix, got null/);
  });
});
