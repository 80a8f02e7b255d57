// SNAP edge lists: comments, separators, renumbering of sparse and huge ids by rank, options.

import { describe, expect, it } from 'vitest';
import { LimitError } from '../../src/errors.js';
import { parseEdgeList } from '../../src/io/index.js';
import { expectFormatError, toDense } from './helpers.js';

describe('parseEdgeList', () => {
  it('renumbers non-contiguous ids by rank and returns the original ids', () => {
    const { matrix, ids } = parseEdgeList('# Directed graph\n# FromNodeId\tToNodeId\n30\t1412\n30 5\n\n1412\t30\n% also a comment\n5   7\n');
    expect(Array.from(ids)).toEqual([5, 7, 30, 1412]);
    expect(matrix.symmetric).toBe(false);
    expect(toDense(matrix)).toEqual([
      [0, 1, 0, 0],
      [0, 0, 0, 0],
      [1, 0, 0, 1],
      [0, 0, 1, 0],
    ]);
  });

  it('keeps ids up to 2^53 - 1 exactly (sparse ids take the sort-and-search path)', () => {
    const big = Number.MAX_SAFE_INTEGER;
    const { matrix, ids } = parseEdgeList(`${big} 3\n3 2147483648\n0 ${big}\n`);
    expect(Array.from(ids)).toEqual([0, 3, 2147483648, big]);
    expect(Array.from(matrix.colIdx)).toEqual([3, 2, 1]);
    expect(Array.from(matrix.rowPtr, Number)).toEqual([0, 1, 2, 2, 3]);
  });

  it('renumbers sparse ids that fit in 32 bits by search too', () => {
    const { ids, matrix } = parseEdgeList('2000000000 1\n1 1000000\n');
    expect(Array.from(ids)).toEqual([1, 1000000, 2000000000]);
    expect(toDense(matrix)).toEqual([
      [0, 1, 0],
      [0, 0, 0],
      [1, 0, 0],
    ]);
  });

  it('symmetrises with undirected, merging an edge listed both ways', () => {
    const { matrix } = parseEdgeList('1 2\n2 1\n2 3\n', { undirected: true });
    expect(matrix.symmetric).toBe(true);
    expect(matrix.nnz).toBe(4);
  });

  it('reads weights, applies the duplicates policy and drops self-loops on request', () => {
    const text = '0 1 0.5\n0 1 2\n1 1 9\n';
    expect(Array.from(parseEdgeList(text, { weights: true }).matrix.values!)).toEqual([2.5, 9]);
    const last = parseEdgeList(text, { weights: true, duplicates: 'last', dropSelfLoops: true, precision: 'f32' });
    expect(last.matrix.values).toBeInstanceOf(Float32Array);
    expect(Array.from(last.matrix.values!)).toEqual([2]);
    expect(last.ids.length).toBe(2);
  });

  it('grows its arrays past the initial capacity', () => {
    const lines: string[] = [];
    for (let e = 0; e < 70000; e++) lines.push(`${e} ${(e * 7) % 70000}`);
    const { matrix, ids } = parseEdgeList(lines.join('\n'));
    expect([matrix.rows, matrix.nnz, ids.length]).toEqual([70000, 70000, 70000]);
  });

  it('returns an empty graph for an input with only comments', () => {
    const { matrix, ids } = parseEdgeList('# nothing\n');
    expect([matrix.rows, matrix.nnz, ids.length]).toEqual([0, 0, 0]);
  });

  it('rejects malformed lines with their line number', () => {
    expect(expectFormatError(() => parseEdgeList('1 2\n3\n'), 2).message).toContain('missing target vertex id');
    expect(expectFormatError(() => parseEdgeList('1 2\n-3 4\n'), 2).message).toContain('source vertex id must be a non-negative integer, got "-3"');
    expect(expectFormatError(() => parseEdgeList('# c\n1 2 7\n'), 2).message).toContain('pass weights: true');
    expect(expectFormatError(() => parseEdgeList('1 2 x\n', { weights: true }), 1).message).toContain('edge weight must be a number');
    expect(expectFormatError(() => parseEdgeList('1 2\n', { weights: true }), 1).message).toContain('missing edge weight');
    expect(expectFormatError(() => parseEdgeList('1 2 3 4\n', { weights: true }), 1).message).toContain('extra field "4"');
    expect(expectFormatError(() => parseEdgeList('1 2.5\n'), 1).message).toContain('got "2.5"');
    expect(expectFormatError(() => parseEdgeList('1 9007199254740992\n', { vertices: 'numeric' }), 1).message).toContain('exceeds 2^53 - 1');
  });

  it('refuses more edges than maxEntries', () => {
    expect(() => parseEdgeList('1 2\n2 3\n3 4\n', { maxEntries: 2 })).toThrow(LimitError);
  });
});
