// Partitions with unequal shares (what a cluster plan gives a faster node): each part's work
// (entries + rows) lands at its share of the total, to within one row's work for row blocks and
// METIS's balance tolerance for METIS parts; bad weights are refused naming the function.

import { describe, expect, it } from 'vitest';
import type { CsrMatrix } from '../../src/data/csr.js';
import { metisAvailable, partitionMetis, partitionRows, type RowPartition } from '../../src/data/partition.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { generate } from '../../src/generators/index.js';

const graph = generate({ kind: 'kronecker', scale: 11, seed: 5 }) as CsrMatrix;

/** Each part's work (entries + rows) over the total. */
function workShares(a: CsrMatrix, p: RowPartition): number[] {
  const work = new Array<number>(p.parts).fill(0);
  for (let r = 0; r < a.rows; r++) work[p.owner[r]!]! += a.rowStart(r + 1) - a.rowStart(r) + 1;
  const total = a.nnz + a.rows;
  return work.map((w) => w / total);
}

it('gives each row block its share of the work, within one row', () => {
  const weights = [3, 1, 2, 2];
  const p = partitionRows(graph, 4, { weights });
  expect(Array.from(p.weights!)).toEqual([0.375, 0.125, 0.25, 0.25]);
  let maxRow = 0;
  for (let r = 0; r < graph.rows; r++) maxRow = Math.max(maxRow, graph.rowStart(r + 1) - graph.rowStart(r) + 1);
  const tolerance = maxRow / (graph.nnz + graph.rows);
  workShares(graph, p).forEach((s, i) => expect(Math.abs(s - p.weights![i]!)).toBeLessThanOrEqual(tolerance));
  // Equal weights are the equal partition.
  expect(partitionRows(graph, 4, { weights: [1, 1, 1, 1] }).bounds).toEqual(partitionRows(graph, 4).bounds);
});

describe.skipIf(!metisAvailable().available)('METIS', () => {
  it('gives each METIS part its share of the work, within its balance tolerance', () => {
    const p = partitionMetis(graph, 3, { weights: [0.6, 0.3, 0.1] });
    const shares = workShares(graph, p);
    // METIS's default imbalance allowance is 3% of each part's target.
    [0.6, 0.3, 0.1].forEach((w, i) => expect(shares[i]!).toBeLessThanOrEqual(w * 1.04));
    expect(shares[0]!).toBeGreaterThan(0.5);
    expect(shares[2]!).toBeLessThan(0.15);
  });
});

it('refuses weights that are not one positive number per part, naming the function', () => {
  for (const weights of [[1, 2], [1, 0, 1], [1, Number.NaN, 1], [1, -1, 3], 'even'])
    expect(() => partitionRows(graph, 3, { weights: weights as never })).toThrow(InvalidArgumentError);
  expect(() => partitionRows(graph, 3, { weights: [1, 2] })).toThrow(/^partitionRows: weights must be 3 positive finite numbers/);
  if (metisAvailable().available) expect(() => partitionMetis(graph, 2, { weights: [1, 0] })).toThrow(/^partitionMetis: weights must be 2/);
});
