// The WebAssembly row statistics equal a plain TypeScript computation over the same rows.

import { describe, expect, it } from 'vitest';
import { CsrMatrix } from '../../src/data/csr.js';
import { generate, parseGeneratorSpec } from '../../src/generators/index.js';
import { rowLengthStats } from '../../src/webassembly/row-stats.js';

function plain(a: CsrMatrix) {
  const lens = Array.from({ length: a.rows }, (_, r) => a.rowLength(r));
  const mean = a.rows ? a.nnz / a.rows : 0;
  const variance = a.rows ? lens.reduce((s, l) => s + l * l, 0) / a.rows - mean * mean : 0;
  return {
    nnz: a.nnz,
    mean,
    cv: mean > 0 ? Math.sqrt(Math.max(variance, 0)) / mean : 0,
    max: Math.max(0, ...lens),
    emptyRows: lens.filter((l) => l === 0).length,
    heavyRows: lens.filter((l) => l > 2 * mean).length,
  };
}

describe('rowLengthStats (WebAssembly)', () => {
  for (const spec of ['kronecker:scale=12', 'grid:rows=50,cols=40,deleteFraction=0.3', 'banded:n=1000,halfBandwidth=3']) {
    it(spec, () => {
      const a = generate(parseGeneratorSpec(spec));
      const got = rowLengthStats(a);
      const want = plain(a);
      expect(got.nnz).toBe(want.nnz);
      expect(got.max).toBe(want.max);
      expect(got.emptyRows).toBe(want.emptyRows);
      expect(got.heavyRows).toBe(want.heavyRows);
      expect(got.mean).toBeCloseTo(want.mean, 12);
      expect(got.cv).toBeCloseTo(want.cv, 9);
    });
  }

  it('handles an empty matrix and refuses non-matrices', () => {
    const empty = new CsrMatrix({ rows: 0, cols: 0, rowPtr: Int32Array.of(0), colIdx: new Int32Array(0) });
    expect(rowLengthStats(empty)).toEqual({ nnz: 0, mean: 0, cv: 0, max: 0, emptyRows: 0, heavyRows: 0 });
    expect(() => rowLengthStats({} as never)).toThrow(/^rowLengthStats: a must be a CsrMatrix/);
  });
});
