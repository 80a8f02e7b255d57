// Plain TypeScript reference kernels: obviously correct, unoptimised, and the yardstick every
// device backend is tested against. The public ones check their arguments' kinds and shapes
// (the CSR arrays themselves were validated by CsrMatrix); results are fresh arrays.

import { CsrMatrix } from '../data/csr.js';
import type { DenseArray } from '../data/dense.js';
import { describe, InvalidArgumentError } from '../errors.js';
import { checkInt } from '../validate.js';

function checkCsr(fn: string, a: unknown): CsrMatrix {
  if (!(a instanceof CsrMatrix)) throw new InvalidArgumentError(`${fn}: expected a CsrMatrix, got ${describe(a)}`);
  return a;
}

/**
 * Y = A[rowBegin:rowEnd, :] * X with X row-major `a.cols x k`. Accumulates in double precision
 * and rounds once, so it is at least as accurate as any backend.
 */
export function spmmReference(a: CsrMatrix, x: DenseArray, k: number, rowBegin = 0, rowEnd?: number): Float64Array {
  const fn = 'spmmReference';
  checkCsr(fn, a);
  rowEnd ??= a.rows;
  if (!(x instanceof Float32Array) && !(x instanceof Float64Array))
    throw new InvalidArgumentError(`${fn}: x must be a Float32Array or Float64Array, got ${describe(x)}`);
  checkInt(fn, 'k', k, 0, 2 ** 31 - 1);
  if (x.length !== a.cols * k) throw new InvalidArgumentError(`${fn}: x has length ${x.length}, expected cols * k = ${a.cols * k}`);
  checkInt(fn, 'rowBegin', rowBegin, 0, a.rows);
  checkInt(fn, 'rowEnd', rowEnd, rowBegin, a.rows);
  const y = new Float64Array((rowEnd - rowBegin) * k);
  const acc = new Float64Array(k);
  for (let r = rowBegin; r < rowEnd; r++) {
    acc.fill(0);
    for (let p = a.rowStart(r), end = a.rowStart(r + 1); p < end; p++) {
      const v = a.values ? a.values[p]! : 1;
      const base = a.colIdx[p]! * k;
      for (let j = 0; j < k; j++) acc[j]! += v * x[base + j]!;
    }
    y.set(acc, (r - rowBegin) * k);
  }
  return y;
}

/**
 * A per-entry error bound for comparing a backend's SpMM against the reference: the sum of
 * |a_ij * x_jc| over the row, so rows with cancellation get a fair tolerance.
 */
export function spmmAbsoluteSums(a: CsrMatrix, x: DenseArray, k: number, rowBegin = 0, rowEnd = a.rows): Float64Array {
  const s = new Float64Array((rowEnd - rowBegin) * k);
  for (let r = rowBegin; r < rowEnd; r++) {
    const out = (r - rowBegin) * k;
    for (let p = a.rowStart(r), end = a.rowStart(r + 1); p < end; p++) {
      const v = Math.abs(a.values ? a.values[p]! : 1);
      const base = a.colIdx[p]! * k;
      for (let j = 0; j < k; j++) s[out + j]! += v * Math.abs(x[base + j]!);
    }
  }
  return s;
}

/** Hop distances from `source` along out-edges; -1 for unreachable vertices. */
export function bfsReference(g: CsrMatrix, source: number): Int32Array {
  checkCsr('bfsReference', g);
  if (g.rows !== g.cols) throw new InvalidArgumentError(`bfsReference: the graph must be square, got ${g.rows}x${g.cols}`);
  checkInt('bfsReference', 'source', source, 0, g.rows - 1);
  const n = g.rows;
  const depth = new Int32Array(n).fill(-1);
  const queue = new Int32Array(n);
  let head = 0;
  let tail = 0;
  depth[source] = 0;
  queue[tail++] = source;
  while (head < tail) {
    const u = queue[head++]!;
    const du = depth[u]!;
    for (let p = g.rowStart(u), end = g.rowStart(u + 1); p < end; p++) {
      const v = g.colIdx[p]!;
      if (depth[v] === -1) {
        depth[v] = du + 1;
        queue[tail++] = v;
      }
    }
  }
  return depth;
}

/** One reference BFS per source; row s of the result holds the depths from sources[s]. */
export function msbfsReference(g: CsrMatrix, sources: Int32Array): Int32Array {
  checkCsr('msbfsReference', g);
  if (!(sources instanceof Int32Array)) throw new InvalidArgumentError(`msbfsReference: sources must be an Int32Array, got ${describe(sources)}`);
  const out = new Int32Array(sources.length * g.rows);
  sources.forEach((s, i) => out.set(bfsReference(g, s), i * g.rows));
  return out;
}

/**
 * Whether `parent` is a valid BFS tree for `depth`: the source is its own parent, every other
 * reached vertex's parent is one level closer and has an edge to it, unreached ones have -1.
 * Returns the first offending vertex, or -1.
 */
export function checkBfsParents(g: CsrMatrix, source: number, depth: Int32Array, parent: Int32Array): number {
  for (let v = 0; v < g.rows; v++) {
    const p = parent[v]!;
    if (depth[v] === -1) {
      if (p !== -1) return v;
      continue;
    }
    if (v === source) {
      if (p !== source) return v;
      continue;
    }
    if (p < 0 || p >= g.rows || depth[p] !== depth[v]! - 1) return v;
    let hasEdge = false;
    for (let q = g.rowStart(p), end = g.rowStart(p + 1); q < end && !hasEdge; q++) hasEdge = g.colIdx[q] === v;
    if (!hasEdge) return v;
  }
  return -1;
}
