// METIS graphs: header formats, weights, and every way a file can fail to be an undirected graph.

import { describe, expect, it } from 'vitest';
import { LimitError } from '../../src/errors.js';
import { parseMetis } from '../../src/io/index.js';
import { expectFormatError, toDense } from './helpers.js';

describe('parseMetis', () => {
  it('reads a plain graph into a symmetric CSR with sorted columns', () => {
    const g = parseMetis('% a triangle plus an isolated vertex\n4 3\n3 2\n1 3\n1 2\n\n');
    expect([g.rows, g.nnz, g.symmetric, g.sortedColumns, g.values]).toEqual([4, 6, true, true, undefined]);
    expect(Array.from(g.colIdx)).toEqual([1, 2, 0, 2, 0, 1]);
  });

  it('reads edge weights and skips vertex sizes and weights', () => {
    // fmt 111: size, then ncon = 2 weights, then (neighbour, weight) pairs.
    const g = parseMetis('3 2 111 2\n1 5 6 2 10\n1 0 0 1 10 3 4\n1 7 7 2 4\n', { precision: 'f32' });
    expect(g.values).toBeInstanceOf(Float32Array);
    expect(toDense(g)).toEqual([
      [0, 10, 0],
      [10, 0, 4],
      [0, 4, 0],
    ]);
  });

  it('names the line of a vertex whose neighbour does not list it back', () => {
    const e = expectFormatError(() => parseMetis('3 2\n2\n1 3\n\n'), 3);
    expect(e.message).toContain('vertex 2 lists neighbour 3, but vertex 3 (line 4) does not list 2');
  });

  it('counts comment lines when naming the line', () => {
    const e = expectFormatError(() => parseMetis('% c\n3 3\n2 3\n% c\n1\n% c\n1 2\n'), 7);
    expect(e.message).toContain('vertex 3 lists neighbour 2, but vertex 2 (line 5) does not list 3');
  });

  it('catches a one-sided entry below the diagonal too', () => {
    const e = expectFormatError(() => parseMetis('3 2\n\n1 3\n2\n'), 3);
    expect(e.message).toContain('vertex 2 lists neighbour 1, but vertex 1 (line 2) does not list 2');
  });

  it('rejects unequal weights on the two sides of an edge', () => {
    const e = expectFormatError(() => parseMetis('2 1 1\n2 3\n1 4\n'), 2);
    expect(e.message).toContain('weight 3 here but 4');
  });

  it('rejects structural problems with the offending line', () => {
    expect(expectFormatError(() => parseMetis('2 1\n3\n1\n'), 2).message).toContain('neighbour 3 of vertex 1 is outside [1, 2]');
    expect(expectFormatError(() => parseMetis('2 1\n0\n1\n'), 2).message).toContain('outside [1, 2]');
    expect(expectFormatError(() => parseMetis('2 1\n1 2\n1\n'), 2).message).toContain('lists itself');
    expect(expectFormatError(() => parseMetis('3 2\n2 2\n1 1\n\n'), 2).message).toContain('more than once');
    expect(expectFormatError(() => parseMetis('3 1\n2\n1\n'), 4).message).toContain('ends after 2 of the 3 vertex lines');
    expect(expectFormatError(() => parseMetis('2 1\n2\n1\n2\n'), 4).message).toContain('more vertex lines than the 2');
    expect(expectFormatError(() => parseMetis('% c\n3 1\n2 3\n1 3\n1 2\n'), 4).message).toContain('more than 2m = 2');
    expect(expectFormatError(() => parseMetis('% c\n3 3\n2\n1\n\n'), 2).message).toContain('hold 1 edges but the header declares m = 3');
    expect(expectFormatError(() => parseMetis('2 1\n2 x\n1\n'), 2).message).toContain('neighbour must be a non-negative integer, got "x"');
    expect(expectFormatError(() => parseMetis('2 1 1\n2\n1 1\n'), 2).message).toContain('missing edge weight');
  });

  it('rejects bad headers', () => {
    expect(expectFormatError(() => parseMetis('% only comments\n'), 2).message).toContain('missing the header');
    expect(expectFormatError(() => parseMetis('2 1 2\n'), 1).message).toContain('fmt must be up to three binary digits');
    expect(expectFormatError(() => parseMetis('2 1 1 2\n'), 1).message).toContain('declares no vertex weights');
    expect(expectFormatError(() => parseMetis('2 -1\n'), 1).message).toContain('edge count must be a non-negative integer');
    expect(() => parseMetis('3 2000000000\n')).toThrow(LimitError);
    expect(() => parseMetis('3 2\n', { maxEntries: 3 })).toThrow(LimitError);
  });
});
