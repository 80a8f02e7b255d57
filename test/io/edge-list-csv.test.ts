// CSV and TSV edge lists: commas found on the first data line (or a delimiter given), a header
// row of column names skipped, quoted fields, weights in a third column, and tab-separated names
// that hold spaces.

import { describe, expect, it } from 'vitest';
import { parseEdgeList } from '../../src/io/index.js';
import { expectFormatError, toDense } from './helpers.js';

describe('CSV and TSV edge lists', () => {
  it('reads commas, skips a header of column names, and reads weights', () => {
    const { matrix, ids } = parseEdgeList('source,target,weight\n0,1,0.5\n1,2,2\n', { weights: true });
    expect(Array.from(ids)).toEqual([0, 1, 2]);
    expect(toDense(matrix)).toEqual([
      [0, 0.5, 0],
      [0, 0, 2],
      [0, 0, 0],
    ]);
  });

  it('reads quoted names with commas and spaces in them', () => {
    const { names } = parseEdgeList('from,to\n"Smith, J",Doe\nDoe,"van der Berg"\n');
    expect(names).toEqual(['Smith, J', 'Doe', 'van der Berg']);
  });

  it('reads tab-separated names that hold spaces with delimiter: "\\t"', () => {
    const { names, matrix } = parseEdgeList('gene_a\tgene_b\nheat shock protein\tHSP90\nHSP90\tCDC37\n', { delimiter: '\t' });
    expect(names).toEqual(['heat shock protein', 'HSP90', 'CDC37']);
    expect(matrix.nnz).toBe(2);
  });

  it('takes a header given as such, and keeps a numeric first line otherwise', () => {
    expect(parseEdgeList('a b\n1 2\n', { header: true }).matrix.nnz).toBe(1);
    expect(parseEdgeList('1 2\n2 3\n').matrix.nnz).toBe(2);
    expect(parseEdgeList('1 2\n2 3\n', { header: true }).matrix.nnz).toBe(1);
  });

  it('names the line and the field that is wrong', () => {
    expect(expectFormatError(() => parseEdgeList('source,target\n1,2,3\n'), 2).message).toContain('unexpected third field "3" (pass weights: true');
    expect(expectFormatError(() => parseEdgeList('1,2,x\n', { weights: true }), 1).message).toContain('edge weight must be a number, got "x"');
    expect(expectFormatError(() => parseEdgeList('1,,3\n', { weights: true }), 1).message).toContain('missing target vertex id');
  });
});
