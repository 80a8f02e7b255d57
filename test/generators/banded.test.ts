import { describe, expect, it } from 'vitest';
import { bandedMatrix } from '../../src/generators/banded.js';
import { equalsTranspose } from './helpers.js';

describe('bandedMatrix', () => {
  it('stores only entries within the band, with the full diagonal', () => {
    const a = bandedMatrix({ n: 500, halfBandwidth: 7, fill: 0.6, seed: 1 });
    expect(a.symmetric).toBe(true);
    expect(a.sortedColumns).toBe(true);
    let widest = 0;
    let diagonals = 0;
    for (let i = 0; i < a.rows; i++) {
      for (let p = a.rowStart(i); p < a.rowStart(i + 1); p++) {
        widest = Math.max(widest, Math.abs(a.colIdx[p]! - i));
        if (a.colIdx[p] === i) diagonals++;
      }
    }
    expect(widest).toBe(7);
    expect(diagonals).toBe(500);
  });

  it('is symmetric in values and strictly diagonally dominant with a positive diagonal', () => {
    for (const precision of ['f32', 'f64'] as const) {
      const a = bandedMatrix({ n: 400, halfBandwidth: 12, fill: 0.8, precision, seed: 2 });
      expect(a.values).toBeInstanceOf(precision === 'f32' ? Float32Array : Float64Array);
      expect(equalsTranspose(a)).toBe(true);
      let worstMargin = Infinity;
      let offRange = [Infinity, -Infinity];
      for (let i = 0; i < a.rows; i++) {
        let diag = 0;
        let off = 0;
        for (let p = a.rowStart(i); p < a.rowStart(i + 1); p++) {
          const v = a.values![p]!;
          if (a.colIdx[p] === i) diag = v;
          else {
            offRange = [Math.min(offRange[0]!, v), Math.max(offRange[1]!, v)];
            off += Math.abs(v);
          }
        }
        worstMargin = Math.min(worstMargin, diag - off);
      }
      expect(worstMargin).toBeGreaterThan(0);
      expect(offRange[0]).toBeGreaterThanOrEqual(-1);
      expect(offRange[1]).toBeLessThan(1);
    }
  });

  it('fills the band at the requested rate; precision does not change the structure', () => {
    const n = 2000;
    const k = 10;
    const fill = 0.3;
    const a = bandedMatrix({ n, halfBandwidth: k, fill, seed: 3 });
    const positions = k * n - (k * (k + 1)) / 2;
    const stored = (a.nnz - n) / 2;
    expect(Math.abs(stored - fill * positions)).toBeLessThan(5 * Math.sqrt(positions * fill * (1 - fill)));
    const b = bandedMatrix({ n, halfBandwidth: k, fill, seed: 3, precision: 'f32' });
    expect(b.colIdx).toEqual(a.colIdx);
    // f32 off-diagonal values are the f64 ones truncated to 24 bits.
    const p = a.rowStart(1) - 1; // last entry of row 0, off the diagonal
    expect(Math.abs(b.values![p]! - a.values![p]!)).toBeLessThan(2 ** -22);
  });

  it('covers the edge cases: diagonal only, full band, a single row', () => {
    expect(bandedMatrix({ n: 5, halfBandwidth: 0 }).nnz).toBe(5);
    expect(bandedMatrix({ n: 6, halfBandwidth: 5 }).nnz).toBe(36);
    expect(bandedMatrix({ n: 6, halfBandwidth: 2, fill: 0 }).nnz).toBe(6);
    expect(bandedMatrix({ n: 1, halfBandwidth: 0 }).values).toEqual(Float64Array.of(1));
  });

  it('refuses a band wider than the matrix', () => {
    expect(() => bandedMatrix({ n: 5, halfBandwidth: 5 })).toThrow(/^bandedMatrix: halfBandwidth must be at most n - 1 = 4, got 5/);
  });
});
