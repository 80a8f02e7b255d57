// The loaders under mutated files: a valid Matrix Market, SNAP or METIS text, spoiled by up to
// three mutations, must parse to a matrix that passes full CSR validation (and, unmutated, to the
// matrix it was written from) or be refused with a typed error naming the parser. Never a
// TypeError or RangeError from inside, never a hang, never an allocation sized by a lying header.

import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { CsrMatrix } from '../../src/data/csr.js';
import { DenseMatrix } from '../../src/data/dense.js';
import { parseMatrixMarket } from '../../src/io/matrix-market.js';
import { parseMetis } from '../../src/io/metis.js';
import { parseEdgeList } from '../../src/io/snap.js';
import { validCsr } from './csr-arbitraries.js';
import { applyAll, mutations } from './text-mutations.js';
import { attempt, fuzz } from './harness.js';

/** The result must be a fully valid matrix: rebuild it through the validating constructor. */
function revalidate(a: CsrMatrix): void {
  expect(() => new CsrMatrix({ rows: a.rows, cols: a.cols, rowPtr: a.rowPtr, colIdx: a.colIdx, values: a.values, symmetric: a.symmetric })).not.toThrow();
}

const mmCase = fc.record({
  m: validCsr,
  field: fc.constantFrom('real', 'integer', 'pattern'),
  symmetric: fc.boolean(),
  dense: fc.boolean(),
  ms: mutations,
  gzip: fc.boolean(),
  maxEntries: fc.option(fc.integer({ min: 0, max: 30 }), { nil: undefined }),
  duplicates: fc.constantFrom('sum', 'error', 'last'),
});

type MmCase = typeof mmCase extends fc.Arbitrary<infer T> ? T : never;

function matrixMarketText(c: MmCase): string {
  const { m, field, symmetric, dense } = c;
  const rows = m.rows as number;
  const cols = m.cols as number;
  const rp = Array.from(m.rowPtr as Int32Array, Number);
  const ci = m.colIdx as Int32Array;
  if (dense) {
    const out = [`%%MatrixMarket matrix array ${field === 'pattern' ? 'real' : field} general`, `${rows} ${cols}`];
    for (let j = 0; j < cols; j++) for (let i = 0; i < rows; i++) out.push(field === 'integer' ? String(((i + j) % 7) - 3) : String((i - j) / 4));
    return out.join('\n') + '\n';
  }
  const sym = symmetric && rows === cols;
  const lines: string[] = [];
  for (let r = 0; r < rows; r++) {
    for (let p = rp[r]!; p < rp[r + 1]!; p++) {
      const c0 = ci[p]!;
      if (sym && c0 > r) continue;
      const v =
        field === 'integer'
          ? String(Math.round(((m.values as Float64Array | undefined)?.[p] ?? 1) * 10))
          : String((m.values as Float64Array | undefined)?.[p] ?? 0.5);
      lines.push(field === 'pattern' ? `${r + 1} ${c0 + 1}` : `${r + 1} ${c0 + 1} ${v}`);
    }
  }
  return (
    [`%%MatrixMarket matrix coordinate ${field} ${sym ? 'symmetric' : 'general'}`, '% a comment', `${rows} ${cols} ${lines.length}`, ...lines].join('\n') + '\n'
  );
}

describe('parseMatrixMarket', () => {
  fuzz('parseMatrixMarket on mutated files: a valid matrix or a typed refusal', mmCase, 400, (c) => {
    const text = matrixMarketText(c);
    let input: string | Uint8Array = applyAll(text, c.ms);
    if (c.gzip) input = gzipSync(typeof input === 'string' ? Buffer.from(input) : input);
    const got = attempt('parseMatrixMarket', () =>
      parseMatrixMarket(input, { ...(c.maxEntries === undefined ? {} : { maxEntries: c.maxEntries }), duplicates: c.duplicates as never }),
    );
    if (!got.ok) return 'refused';
    const out = got.value;
    if (out instanceof DenseMatrix) {
      expect(out.data.length).toBe(out.rows * out.cols);
      expect(out.data.every(Number.isFinite)).toBe(true);
    } else {
      revalidate(out);
      if (c.ms.length === 0 && !c.dense) {
        expect([out.rows, out.cols]).toEqual([c.m.rows, c.m.cols]);
      }
    }
    return 'result';
  });

  fuzz('parseMatrixMarket on random bytes', fc.uint8Array({ maxLength: 200 }), 200, (bytes) => {
    const withBanner = new Uint8Array([...new TextEncoder().encode('%%MatrixMarket matrix coordinate real general\n'), ...bytes]);
    for (const input of [bytes, withBanner]) {
      const got = attempt('parseMatrixMarket', () => parseMatrixMarket(input));
      if (got.ok && got.value instanceof CsrMatrix) revalidate(got.value);
    }
    return 'refused';
  });
});

const snapCase = fc.record({
  edges: fc.array(fc.tuple(fc.oneof(fc.nat(20), fc.constantFrom(2 ** 53 - 1, 2 ** 31, 0)), fc.nat(20), fc.double({ min: -2, max: 2, noNaN: true })), {
    maxLength: 20,
  }),
  weights: fc.boolean(),
  undirected: fc.boolean(),
  dropSelfLoops: fc.boolean(),
  precision: fc.constantFrom('f32', 'f64'),
  duplicates: fc.constantFrom('sum', 'error', 'first'),
  ms: mutations,
});

describe('parseEdgeList', () => {
  fuzz('parseEdgeList on mutated edge lists: a valid graph or a typed refusal', snapCase, 400, (c) => {
    const text = ['# edge list', ...c.edges.map(([u, v, w]) => (c.weights ? `${u}\t${v}\t${w}` : `${u} ${v}`))].join('\n') + '\n';
    const input = applyAll(text, c.ms);
    const got = attempt('parseEdgeList', () =>
      parseEdgeList(input, {
        weights: c.weights,
        undirected: c.undirected,
        dropSelfLoops: c.dropSelfLoops,
        precision: c.precision as never,
        duplicates: c.duplicates as never,
      }),
    );
    if (!got.ok) return 'refused';
    const { matrix, ids } = got.value;
    revalidate(matrix);
    expect(ids.length).toBe(matrix.rows);
    for (let i = 1; i < ids.length; i++) expect(ids[i]!).toBeGreaterThan(ids[i - 1]!);
    // biome-ignore lint/complexity/noFlatMapIdentity: not an identity: an edge is [u, v, weight], this keeps its two ends
    if (c.ms.length === 0) expect(matrix.rows).toBe(new Set(c.edges.flatMap(([u, v]) => [u, v])).size);
    return 'result';
  });
});

const metisCase = fc.record({
  n: fc.integer({ min: 0, max: 8 }),
  pairs: fc.array(fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 1, max: 9 })), { maxLength: 16 }),
  weighted: fc.boolean(),
  ms: mutations,
  maxEntries: fc.option(fc.integer({ min: 0, max: 40 }), { nil: undefined }),
});

describe('parseMetis', () => {
  fuzz('parseMetis on mutated graphs: a valid symmetric graph or a typed refusal', metisCase, 400, (c) => {
    const adj = Array.from({ length: c.n }, () => new Map<number, number>());
    for (const [a, b, w] of c.pairs) {
      if (c.n === 0) break;
      const u = a % c.n;
      const v = b % c.n;
      if (u === v || adj[u]!.has(v)) continue;
      adj[u]!.set(v, w);
      adj[v]!.set(u, w);
    }
    const m = adj.reduce((s, a) => s + a.size, 0) / 2;
    const lines = [`% metis`, c.weighted ? `${c.n} ${m} 1` : `${c.n} ${m}`];
    for (const a of adj) lines.push([...a].map(([v, w]) => (c.weighted ? `${v + 1} ${w}` : `${v + 1}`)).join(' '));
    const input = applyAll(lines.join('\n') + '\n', c.ms);
    const got = attempt('parseMetis', () => parseMetis(input, c.maxEntries === undefined ? {} : { maxEntries: c.maxEntries }));
    if (!got.ok) return 'refused';
    revalidate(got.value);
    expect(got.value.symmetric).toBe(true);
    if (c.ms.length === 0) expect(got.value.nnz).toBe(2 * m);
    return 'result';
  });
});
