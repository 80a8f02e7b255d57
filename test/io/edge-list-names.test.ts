// Edge lists whose vertices are names (gene networks, SNAP's named graphs): numbered in order of
// first appearance and kept in `names`; ids past 2^53 - 1 are kept exactly as names; a file that
// starts with numbers and turns to names renames what came before.

import { describe, expect, it } from 'vitest';
import { parseEdgeList } from '../../src/io/index.js';
import { expectFormatError, toDense } from './helpers.js';

describe('edge lists with named vertices', () => {
  it('numbers names in order of first appearance and returns them', () => {
    const { matrix, names, ids } = parseEdgeList('# protein interactions\nTP53\tMDM2\nMDM2 CDKN1A\nBRCA1 TP53\n', { undirected: true });
    expect(names).toEqual(['TP53', 'MDM2', 'CDKN1A', 'BRCA1']);
    expect(Array.from(ids)).toEqual([0, 1, 2, 3]);
    expect(matrix.symmetric).toBe(true);
    expect(toDense(matrix)).toEqual([
      [0, 1, 0, 1],
      [1, 0, 1, 0],
      [0, 1, 0, 0],
      [1, 0, 0, 0],
    ]);
  });

  it('turns the numbers read before the first name into names', () => {
    const { names, matrix } = parseEdgeList('10 20\n20 7SK\n');
    expect(names).toEqual(['10', '20', '7SK']);
    expect(toDense(matrix)).toEqual([
      [0, 1, 0],
      [0, 0, 1],
      [0, 0, 0],
    ]);
  });

  it('keeps ids past 2^53 - 1 exactly, as names', () => {
    const { names, matrix } = parseEdgeList('9007199254740993 9007199254740992\n1 9007199254740993\n');
    expect(names).toEqual(['9007199254740993', '9007199254740992', '1']);
    expect(matrix.nnz).toBe(2);
  });

  it("reads every vertex as a name with vertices: 'names', and refuses names with 'numeric'", () => {
    expect(parseEdgeList('3 1\n1 2\n', { vertices: 'names' }).names).toEqual(['3', '1', '2']);
    expect(expectFormatError(() => parseEdgeList('1 2\nTP53 1\n', { vertices: 'numeric' }), 2).message).toContain(
      'source vertex id must be a non-negative integer, got "TP53" (vertices: "numeric")',
    );
  });

  it('still refuses numbers that are no ids while the vertices are numbers', () => {
    expect(expectFormatError(() => parseEdgeList('1 2\n-3 4\n'), 2).message).toContain('got "-3"');
    expect(expectFormatError(() => parseEdgeList('1 2\n3 1e5\n'), 2).message).toContain('got "1e5"');
  });

  it('refuses an unknown vertices option with the choices', () => {
    expect(() => parseEdgeList('1 2\n', { vertices: 'strings' as never })).toThrow(/parseEdgeList: vertices must be one of/);
  });
});
