// The data store: content hashes, one copy of the same bytes for two tenants, each tenant sees
// only its own uploads, and least recently used unpinned data goes first when the bound is hit.

import { expect, it } from 'vitest';
import { CsrMatrix } from '../../src/data/csr.js';
import { DenseMatrix } from '../../src/data/dense.js';
import { InvalidArgumentError, LimitError } from '../../src/errors.js';
import { DataStore } from '../../src/service/data-store.js';

const dense = (v: number, n = 16): DenseMatrix => new DenseMatrix(n, 1, new Float64Array(n).fill(v)); // n * 8 bytes

it('stores the same bytes once, visible only to the tenants that uploaded them', () => {
  const s = new DataStore(1 << 20);
  const a = s.put('a', dense(1));
  const b = s.put('b', dense(1));
  expect(b.hash).toBe(a.hash);
  expect([a.stored, b.stored]).toEqual(['new', 'shared']);
  expect(s.usage().bytes).toBe(128);
  expect(s.get('f', 'data', 'a', a.hash)).toBeInstanceOf(DenseMatrix);
  expect(() => s.get('serve.run', 'data', 'c', a.hash)).toThrow(InvalidArgumentError);
  expect(() => s.get('serve.run', 'data', 'c', a.hash)).toThrow(/serve\.run: field "data": no data .* for tenant "c"/);
  expect(() => s.get('serve.run', 'data', 'a', 'zz')).toThrow(/content hash/);
  // Different content, different hash; the CSR's symmetry is part of it.
  const m = { rows: 2, cols: 2, rowPtr: Int32Array.of(0, 1, 2), colIdx: Int32Array.of(1, 0) };
  expect(s.put('a', new CsrMatrix(m)).hash).not.toBe(s.put('a', new CsrMatrix({ ...m, symmetric: true })).hash);
});

it('evicts the least recently used unpinned data, and refuses what cannot fit', () => {
  const s = new DataStore(3 * 128);
  const x = s.put('a', dense(1));
  const y = s.put('a', dense(2));
  const z = s.put('a', dense(3));
  s.get('f', 'data', 'a', x.hash); // x is now the most recent
  s.pin([y.hash]);
  s.put('a', dense(4)); // y is pinned, z is the least recent unpinned
  expect(() => s.get('f', 'data', 'a', z.hash)).toThrow(/evicted/);
  expect(s.get('f', 'data', 'a', y.hash)).toBeDefined();
  expect(s.usage().evicted).toBe(1);
  expect(() => s.put('a', dense(5, 64))).toThrow(LimitError);
  s.pin([x.hash]);
  const w = s.put('a', dense(6)); // evicts dense(4), the only unpinned one
  s.pin([w.hash]);
  expect(() => s.put('a', dense(7))).toThrow(/in use by jobs/);
});

it("forgets a tenant's claim on release", () => {
  const s = new DataStore(1 << 20);
  const a = s.put('a', dense(1));
  s.put('b', dense(1));
  expect(s.release('a', a.hash)).toBe(true);
  expect(() => s.get('f', 'data', 'a', a.hash)).toThrow(InvalidArgumentError);
  expect(s.get('f', 'data', 'b', a.hash)).toBeDefined();
  expect(s.release('b', a.hash)).toBe(true);
  expect(s.usage().bytes).toBe(0);
});
