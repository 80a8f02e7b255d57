// gcnNormalise on hand-checked graphs, on messy input, and its symmetry.

import { describe, expect, it } from 'vitest';
import { symmetrize } from '../../src/data/convert.js';
import { erdosRenyiGraph } from '../../src/generators/erdos-renyi.js';
import { gcnNormalise } from '../../src/workloads/transforms.js';
import { randomCsr } from '../data/helpers.js';
import { csr, dense, entries } from './helpers.js';
import { denseGcn, expectClose, expectSortedRows } from './transform-helpers.js';

const s6 = 1 / Math.sqrt(6);
const s8 = 1 / Math.sqrt(8);

describe('gcnNormalise', () => {
  it('normalises a 3-vertex path (degrees 2, 3, 2 with self-loops)', () => {
    const path = csr(3, [[1], [0, 2], [1]]);
    const g = gcnNormalise(path, 'f64');
    expect(g.values).toBeInstanceOf(Float64Array);
    expectSortedRows(g);
    expect(entries(g)).toEqual(
      [
        [0, 0, 1 / 2],
        [0, 1, s6],
        [1, 0, s6],
        [1, 1, 1 / 3],
        [1, 2, s6],
        [2, 1, s6],
        [2, 2, 1 / 2],
      ].map(([i, j, v]) => [i, j, expect.closeTo(v!, 15)]),
    );
  });

  it('normalises a star (centre degree 4, leaves 2)', () => {
    const star = csr(4, [[1, 2, 3], [0], [0], [0]]);
    const g = gcnNormalise(star);
    expect(g.values).toBeInstanceOf(Float32Array);
    expectClose(
      dense(g),
      [
        [1 / 4, s8, s8, s8],
        [s8, 1 / 2, 0, 0],
        [s8, 0, 1 / 2, 0],
        [s8, 0, 0, 1 / 2],
      ],
      1e-7,
    );
  });

  it('does not double an existing self-loop (pattern) and keeps its weight (valued)', () => {
    const loop = csr(2, [[1], [0, 1]]); // vertex 1 already has a self-loop
    expectClose(
      dense(gcnNormalise(loop, 'f64')),
      [
        [1 / 2, 1 / 2],
        [1 / 2, 1 / 2],
      ],
      1e-15,
    );
    expect(gcnNormalise(loop).nnz).toBe(4);
    const weighted = csr(
      2,
      [
        [[1, 1]],
        [
          [0, 1],
          [1, 3],
        ],
      ],
      'f64',
    ); // d = [2, 4]
    expectClose(
      dense(gcnNormalise(weighted, 'f64')),
      [
        [1 / 2, 1 / Math.sqrt(8)],
        [1 / Math.sqrt(8), 3 / 4],
      ],
      1e-15,
    );
  });

  it('inserts the self-loop at its sorted place in every row, empty rows included', () => {
    const a = csr(5, [[4], [], [0, 1, 4], [2], [0]]);
    const g = gcnNormalise(a, 'f64');
    expectSortedRows(g);
    expect(
      entries(g)
        .filter(([i, j]) => i === j)
        .map(([i]) => i),
    ).toEqual([0, 1, 2, 3, 4]);
    expectClose(dense(g), denseGcn(a), 1e-15);
  });

  it('matches the dense formula on unsorted input with duplicate entries (which add up)', () => {
    for (const kind of ['pattern', 'f64'] as const) {
      const a = randomCsr(15, 15, 7, { values: kind, messy: true, density: 0.3 });
      const positive =
        kind === 'pattern'
          ? a
          : csr(
              15,
              Array.from({ length: 15 }, (_, i) => entries(a, i, i + 1).map(([, j, v]) => [j, Math.abs(v) + 1] as const)),
              'f64',
            );
      expect(positive.sortedColumns).toBe(false);
      const g = gcnNormalise(positive, 'f64');
      expectSortedRows(g);
      expectClose(dense(g), denseGcn(positive), 1e-14);
    }
  });

  it('is symmetric bit for bit on a symmetric generated graph, pattern or weighted', () => {
    for (const weights of [undefined, 'f32', 'f64'] as const) {
      // Generated weights are the same in both directions of an edge.
      const g = erdosRenyiGraph({ n: 120, m: 600, seed: 4, ...(weights ? { weights } : {}) });
      const h = gcnNormalise(g, weights ?? 'f32');
      expect(h.symmetric).toBe(true);
      const d = dense(h);
      d.forEach((row, i) =>
        row.forEach((v, j) => {
          if (d[j]![i] !== v) expect.fail(`(${i}, ${j}) = ${v} but (${j}, ${i}) = ${d[j]![i]}`);
        }),
      );
    }
    // And on a symmetrised messy matrix with a zero-free diagonal.
    const s = symmetrize(randomCsr(30, 30, 3, { values: 'pattern', messy: true, density: 0.2 }));
    const h = dense(gcnNormalise(s, 'f64'));
    h.forEach((row, i) => row.forEach((v, j) => expect(h[j]![i]).toBe(v)));
  });
});
