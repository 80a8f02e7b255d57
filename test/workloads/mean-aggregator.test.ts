// meanAggregator divides each row by its sum; empty rows stay empty.

import { describe, expect, it } from 'vitest';
import { erdosRenyiGraph } from '../../src/generators/erdos-renyi.js';
import { meanAggregator } from '../../src/workloads/transforms.js';
import { randomCsr } from '../data/helpers.js';
import { csr, dense, entries } from './helpers.js';
import { denseMean, expectClose, expectSortedRows } from './transform-helpers.js';

describe('meanAggregator', () => {
  it('averages over neighbours on a 3-vertex path and a star', () => {
    expect(dense(meanAggregator(csr(3, [[1], [0, 2], [1]]), 'f64'))).toEqual([
      [0, 1, 0],
      [1 / 2, 0, 1 / 2],
      [0, 1, 0],
    ]);
    const star = meanAggregator(csr(4, [[1, 2, 3], [0], [0], [0]]));
    expect(star.values).toBeInstanceOf(Float32Array);
    expect(dense(star)).toEqual([
      [0, Math.fround(1 / 3), Math.fround(1 / 3), Math.fround(1 / 3)],
      [1, 0, 0, 0],
      [1, 0, 0, 0],
      [1, 0, 0, 0],
    ]);
  });

  it('uses the weights, keeps a self-loop as an ordinary entry, and leaves empty rows empty', () => {
    const a = csr(
      3,
      [
        [
          [0, 1],
          [2, 3],
        ],
        [],
        [[1, 2]],
      ],
      'f64',
    );
    const m = meanAggregator(a, 'f64');
    expect(entries(m)).toEqual([
      [0, 0, 1 / 4],
      [0, 2, 3 / 4],
      [2, 1, 1],
    ]);
    expect(m.rowLength(1)).toBe(0);
  });

  it('accepts rectangular matrices', () => {
    const m = meanAggregator(csr(5, [[0, 4], [3]]), 'f64');
    expect([m.rows, m.cols]).toEqual([2, 5]);
    expect(dense(m)).toEqual([
      [1 / 2, 0, 0, 0, 1 / 2],
      [0, 0, 0, 1, 0],
    ]);
  });

  it('matches the dense formula on unsorted input with duplicates (which add up)', () => {
    const a = randomCsr(12, 9, 3, { values: 'pattern', messy: true, density: 0.4 });
    expect(a.sortedColumns).toBe(false);
    const m = meanAggregator(a, 'f64');
    expectSortedRows(m);
    expectClose(dense(m), denseMean(a), 1e-15);
  });

  it('has rows summing to 1 for every non-empty row of a generated graph', () => {
    for (const weights of [undefined, 'f64'] as const) {
      const g = erdosRenyiGraph({ n: 500, m: 900, seed: 11, directed: true, ...(weights ? { weights } : {}) });
      for (const precision of ['f32', 'f64'] as const) {
        const m = meanAggregator(g, precision);
        let empty = 0;
        for (let i = 0; i < m.rows; i++) {
          if (m.rowLength(i) === 0) {
            expect(g.rowLength(i)).toBe(0);
            empty++;
            continue;
          }
          let s = 0;
          for (let p = m.rowStart(i); p < m.rowStart(i + 1); p++) s += m.values![p]!;
          expect(Math.abs(s - 1)).toBeLessThan(precision === 'f32' ? 1e-6 : 1e-14);
        }
        expect(empty).toBeGreaterThan(0); // the property was checked next to empty rows too
      }
    }
  });
});
