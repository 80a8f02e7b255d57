// Row partitions for distributed operators: contiguous blocks that cover every row once, balanced
// by work (entries + rows) to within one row's work of the mean; METIS partitions (where the build
// has METIS) that cut fewer edges at about the same balance; and their communication figures (edge
// cut, halos) equal to a plain count over the entries.

import { describe, expect, it } from 'vitest';
import { CsrMatrix } from '../../src/data/csr.js';
import { metisAvailable, partitionMetis, partitionRows, partitionStats } from '../../src/data/partition.js';
import { nativeAddon } from '../../src/native/addon.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { generate } from '../../src/generators/index.js';

const graphs = [
  generate({ kind: 'kronecker', scale: 9, seed: 3 }),
  generate({ kind: 'grid', rows: 30, cols: 20, seed: 2 }),
  generate({ kind: 'banded', n: 500, halfBandwidth: 7, seed: 1 }),
];

/** Edge cut and halos counted the plain way: every entry, with a set of remote columns per part. */
function plainStats(a: CsrMatrix, owner: Int32Array, parts: number): { cut: number[]; halo: number[]; sends: number[]; peers: number[] } {
  const ownerOf = (v: number): number => owner[v]!;
  const cut = new Array<number>(parts).fill(0);
  const halo = Array.from({ length: parts }, () => new Set<number>());
  const talks = Array.from({ length: parts }, () => new Set<number>());
  for (let r = 0; r < a.rows; r++) {
    const p = ownerOf(r);
    for (let e = a.rowStart(r); e < a.rowStart(r + 1); e++) {
      const c = a.colIdx[e]!;
      if (ownerOf(c) !== p) {
        cut[p]!++;
        halo[p]!.add(c);
        talks[p]!.add(ownerOf(c));
        talks[ownerOf(c)]!.add(p);
      }
    }
  }
  // What a part sends: each of its rows once for every other part whose halo holds it.
  const sends = new Array<number>(parts).fill(0);
  for (const h of halo) for (const c of h) sends[ownerOf(c)]!++;
  return { cut, halo: halo.map((s) => s.size), sends, peers: talks.map((t) => t.size) };
}

it('covers every row once in contiguous blocks balanced to within one row of the mean work', () => {
  for (const a of graphs) {
    let widest = 0;
    for (let r = 0; r < a.rows; r++) widest = Math.max(widest, a.rowLength(r) + 1);
    for (const parts of [1, 2, 3, 4, 7]) {
      const bounds = partitionRows(a, parts).bounds!;
      expect(bounds.length).toBe(parts + 1);
      expect([bounds[0], bounds[parts]]).toEqual([0, a.rows]);
      for (let p = 0; p < parts; p++) expect(bounds[p + 1]!).toBeGreaterThanOrEqual(bounds[p]!);
      const mean = (a.nnz + a.rows) / parts;
      for (let p = 0; p < parts; p++) {
        const work = a.rowStart(bounds[p + 1]!) - a.rowStart(bounds[p]!) + bounds[p + 1]! - bounds[p]!;
        expect(Math.abs(work - mean)).toBeLessThanOrEqual(2 * widest);
      }
    }
  }
});

it('counts the edge cut and each part’s halo, sends and peers as a plain count over the entries does', () => {
  for (const a of graphs) {
    for (const parts of [1, 2, 4, 5]) {
      const partition = partitionRows(a, parts);
      const s = partitionStats(a, partition);
      const plain = plainStats(a, partition.owner, parts);
      expect(s.parts.map((p) => p.cutEntries)).toEqual(plain.cut);
      expect(s.parts.map((p) => p.halo)).toEqual(plain.halo);
      expect(s.parts.map((p) => p.sends)).toEqual(plain.sends);
      expect(s.parts.map((p) => p.peers)).toEqual(plain.peers);
      expect(s.edgeCut).toBe(plain.cut.reduce((x, y) => x + y, 0));
      expect(s.haloTotal).toBe(plain.halo.reduce((x, y) => x + y, 0));
      expect(s.parts.reduce((x, p) => x + p.entries, 0)).toBe(a.nnz);
      if (parts === 1) expect([s.edgeCut, s.imbalance]).toEqual([0, 1]);
      expect(s.imbalance).toBeGreaterThanOrEqual(1);
    }
  }
});

it('leaves parts empty where there are more parts than rows, and refuses bad arguments', () => {
  const tiny = generate({ kind: 'grid', rows: 2, cols: 1, seed: 1 });
  const p = partitionRows(tiny, 5);
  expect(p.bounds![5]).toBe(tiny.rows);
  expect(partitionStats(tiny, p).parts.reduce((x, q) => x + q.rows, 0)).toBe(tiny.rows);
  const rect = new CsrMatrix({ rows: 2, cols: 3, rowPtr: Int32Array.from([0, 1, 2]), colIdx: Int32Array.from([0, 2]) });
  expect(() => partitionRows(rect, 2)).toThrow("partitionRows: a must be square (a graph's adjacency matrix), got 2x3");
  expect(() => partitionRows(graphs[0]!, 0)).toThrow(InvalidArgumentError);
  expect(() => partitionRows(graphs[0]!, 1.5)).toThrow('partitionRows: parts must be an integer in [1, 1048576], got 1.5');
  const owner = new Int32Array(graphs[0]!.rows).fill(1);
  owner[7] = 2;
  expect(() => partitionStats(graphs[0]!, { parts: 2, method: 'rows', owner })).toThrow('partitionStats: row 7 is given part 2, outside [0, 2)');
});

describe.skipIf(!metisAvailable().available)('with METIS', () => {
  it('cuts fewer edges than row blocks at about the same balance, and counts like the plain way', () => {
    for (const a of [graphs[0]!, generate({ kind: 'kronecker', scale: 11, seed: 5 })]) {
      for (const parts of [2, 4]) {
        const m = partitionMetis(a, parts, { seed: 3 });
        expect(m.owner.length).toBe(a.rows);
        const s = partitionStats(a, m);
        const plain = plainStats(a, m.owner, parts);
        expect(s.parts.map((p) => p.halo)).toEqual(plain.halo);
        expect(s.edgeCut).toBeLessThan(partitionStats(a, partitionRows(a, parts)).edgeCut);
        expect(s.imbalance).toBeLessThan(1.1);
        // The same seed gives the same partition.
        expect(partitionMetis(a, parts, { seed: 3 }).owner).toEqual(m.owner);
      }
    }
  });

  it('refuses, in native code, graphs METIS would read out of bounds', () => {
    const addon = nativeAddon();
    const out = new Int32Array(3);
    const call = (rowPtr: number[], colIdx: number[], weights: Float64Array | null = null): unknown =>
      addon.metisPartition(3, Int32Array.from(rowPtr), Int32Array.from(colIdx), 2, 1, out, weights);
    expect(() => call([0, 1, 2, 2], [1, 0])).not.toThrow();
    expect(() => call([0, 1, 1, 1], [1])).toThrow('metisPartition: the graph is not symmetric: 0 -> 1 has no reverse');
    expect(() => call([0, 1, 2, 3], [0, 2, 1])).toThrow('metisPartition: vertex 0 has a self loop');
    expect(() => call([0, 1, 2, 2], [9, 0])).toThrow('metisPartition: colIdx[0] = 9 is outside [0, 3)');
    expect(() => call([0, 2, 3, 4], [2, 1, 0, 0])).toThrow('metisPartition: row 0 is not strictly sorted');
    expect(() => call([0, 5, 5, 5], [1, 2])).toThrow("metisPartition: rowPtr must start at 0 and end at colIdx's length");
    // Target shares METIS would read past, or would not balance to.
    expect(() => call([0, 1, 2, 2], [1, 0], Float64Array.of(0.5))).toThrow('metisPartition: weights must have length parts = 2');
    expect(() => call([0, 1, 2, 2], [1, 0], Float64Array.of(0.5, Number.NaN))).toThrow('metisPartition: weights[1] must be a positive finite number');
    expect(() => call([0, 1, 2, 2], [1, 0], Float64Array.of(0.5, 0.6))).toThrow(/^metisPartition: weights must sum to 1/);
    expect(() => call([0, 1, 2, 2], [1, 0], Float64Array.of(0.25, 0.75))).not.toThrow();
  });
});
