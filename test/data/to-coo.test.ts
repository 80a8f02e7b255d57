import { describe, expect, it } from 'vitest';
import { cooToCsr } from '../../src/data/coo.js';
import { toCoo } from '../../src/data/convert.js';
import type { CsrMatrix } from '../../src/data/csr.js';
import { randomCsr } from './helpers.js';

describe('toCoo', () => {
  it('round-trips through cooToCsr', () => {
    for (const values of ['pattern', 'f32', 'f64'] as const) {
      const a = randomCsr(9, 13, 21, { values, wide: values === 'f64' });
      const coo = toCoo(a);
      expect(coo.rowIdx.length).toBe(a.nnz);
      const back = cooToCsr(coo);
      expect(Array.from(back.rowPtr, Number)).toEqual(Array.from(a.rowPtr, Number));
      expect(back.colIdx).toEqual(a.colIdx);
      expect(back.values).toEqual(a.values);
    }
  });

  it('returns fresh arrays', () => {
    const a = randomCsr(4, 4, 2);
    const coo = toCoo(a);
    expect(coo.colIdx).not.toBe(a.colIdx);
    expect(coo.values).not.toBe(a.values);
  });

  it('refuses anything but a CsrMatrix', () => {
    expect(() => toCoo('a' as unknown as CsrMatrix)).toThrow(/^toCoo: expected a CsrMatrix, got "a"/);
  });
});
