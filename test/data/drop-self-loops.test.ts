import { describe, expect, it } from 'vitest';
import { dropSelfLoops } from '../../src/data/convert.js';
import { CsrMatrix } from '../../src/data/csr.js';
import { randomCsr, triples } from './helpers.js';

describe('dropSelfLoops', () => {
  it('removes exactly the diagonal entries, keeping order, values and flags', () => {
    for (const [rows, cols, messy] of [
      [10, 10, false],
      [7, 12, true],
      [12, 7, false],
    ] as const) {
      const a = randomCsr(rows, cols, rows * cols, { density: 0.5, messy, values: 'f32' });
      const d = dropSelfLoops(a);
      const expected = triples(a).filter((t) => {
        const [i, j] = t.split(',');
        return i !== j;
      });
      expect(triples(d)).toEqual(expected);
      expect(d.values).toBeInstanceOf(Float32Array);
      expect(d.cols).toBe(cols);
    }
  });

  it('keeps the symmetric flag, and returns the matrix itself when it has no self-loop', () => {
    const s = new CsrMatrix({ rows: 2, cols: 2, rowPtr: Int32Array.of(0, 2, 3), colIdx: Int32Array.of(0, 1, 0), symmetric: true });
    const d = dropSelfLoops(s);
    expect(d.symmetric).toBe(true);
    expect(Array.from(d.colIdx)).toEqual([1, 0]);
    expect(dropSelfLoops(d)).toBe(d);
  });

  it('refuses anything but a CsrMatrix', () => {
    expect(() => dropSelfLoops(undefined as unknown as CsrMatrix)).toThrow(/^dropSelfLoops: expected a CsrMatrix/);
  });
});
