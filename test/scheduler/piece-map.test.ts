// PieceMap: values by (operator, device, begin, end), the same whether an operator holds a few
// pieces (a scanned list) or many (a keyed map after the eighth).

import { describe, expect, it } from 'vitest';
import { PieceMap } from '../../src/scheduler/piece-map.js';

describe('PieceMap', () => {
  it('finds, replaces and misses pieces, before and after an operator outgrows its list', () => {
    const m = new PieceMap<number>(3);
    for (let k = 0; k < 20; k++) {
      m.set(1, k % 3, k, k + 1, k);
      for (let j = 0; j <= k; j++) expect(m.get(1, j % 3, j, j + 1)).toBe(j);
      expect(m.get(1, (k + 1) % 3, k, k + 1)).toBeUndefined();
    }
    m.set(1, 2, 5, 6, 50);
    expect(m.get(1, 2, 5, 6)).toBe(50);
    m.set(0, 0, 0, 1, 7);
    m.set(0, 0, 0, 1, 8);
    expect(m.get(0, 0, 0, 1)).toBe(8);
    expect(m.get(2, 0, 0, 1)).toBeUndefined();
    expect(m.get(0, 1, 0, 1)).toBeUndefined();
  });
});
