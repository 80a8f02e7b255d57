// In-edges (the transpose) for bottom-up BFS steps, which ask "does any in-neighbour sit in the
// frontier?". Undirected graphs are their own transpose; directed ones get one transpose per
// graph, cached for as long as the graph object lives.

import { CsrMatrix, validateCsr } from '../data/csr.js';
import { transpose } from '../data/convert.js';
import { describe, InvalidArgumentError } from '../errors.js';

const cache = new WeakMap<CsrMatrix, CsrMatrix>();

export function checkGraph(fn: string, g: unknown): CsrMatrix {
  if (!(g instanceof CsrMatrix)) throw new InvalidArgumentError(`${fn}: graph must be a CsrMatrix, got ${describe(g)}`);
  if (g.rows !== g.cols) throw new InvalidArgumentError(`${fn}: graph must be square, got ${g.rows}x${g.cols}`);
  return g;
}

export function inEdgesOf(fn: string, g: CsrMatrix, given: unknown): CsrMatrix {
  if (given !== undefined) {
    if (!(given instanceof CsrMatrix) || given.rows !== g.rows || given.cols !== g.cols || given.nnz !== g.nnz) {
      throw new InvalidArgumentError(
        `${fn}: inEdges must be the transpose of the graph (a ${g.rows}x${g.cols} CsrMatrix with ${g.nnz} entries), got ${describe(given)}`,
      );
    }
    if (given.wideRowPtr !== g.wideRowPtr) {
      throw new InvalidArgumentError(`${fn}: inEdges must use the graph's row-pointer width`);
    }
    return given;
  }
  if (g.symmetric) return g;
  let t = cache.get(g);
  if (t === undefined) {
    // The arrays may have changed since construction; transposing garbage could loop for long.
    validateCsr(fn, g);
    t = transpose(g);
    cache.set(g, t);
  }
  return t;
}
