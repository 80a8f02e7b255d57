// A Kronecker graph with a tail: a path of extra vertices hung off the biggest hub, so a
// small-world core gets a long diameter; the core itself is the graph without the tail.

import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors.js';
import { generate, kroneckerGraph, parseGeneratorSpec } from '../../src/generators/index.js';
import { bfsReference } from '../../src/kernels/reference.js';

describe('kroneckerGraph tail', () => {
  const core = kroneckerGraph({ scale: 8, seed: 4 });
  const tailed = kroneckerGraph({ scale: 8, seed: 4, tail: 50 });

  it('adds a path of `tail` vertices after the core, attached to its highest-degree vertex', () => {
    expect(tailed.rows).toBe(256 + 50);
    expect(tailed.nnz).toBe(core.nnz + 2 * 50);
    const degree = (g: typeof core, v: number): number => Number(g.rowPtr[v + 1]) - Number(g.rowPtr[v]);
    let hub = 0;
    for (let v = 0; v < core.rows; v++) if (degree(core, v) > degree(core, hub)) hub = v;
    const d = bfsReference(tailed, hub);
    for (let i = 0; i < 50; i++) expect(d[256 + i]).toBe(i + 1);
    // Every tail vertex but the last has two neighbours.
    for (let i = 0; i < 49; i++) expect(degree(tailed, 256 + i)).toBe(2);
    expect(degree(tailed, 256 + 49)).toBe(1);
  });

  it('leaves the core as it is without a tail (same seed, same edges among the core vertices)', () => {
    for (let v = 0; v < core.rows; v++) {
      const a = Array.from(core.colIdx.subarray(Number(core.rowPtr[v]), Number(core.rowPtr[v + 1])));
      const b = Array.from(tailed.colIdx.subarray(Number(tailed.rowPtr[v]), Number(tailed.rowPtr[v + 1]))).filter((u) => u < 256);
      expect(b).toEqual(a);
    }
    expect(kroneckerGraph({ scale: 8, seed: 4, tail: 0 }).colIdx).toEqual(core.colIdx);
  });

  it('is directed along the path in a directed graph, and parses from a CLI spec', () => {
    const g = generate(parseGeneratorSpec('kronecker:scale=6,tail=3,directed=true,seed=1'));
    expect(g.rows).toBe(67);
    expect(Number(g.rowPtr[65]) - Number(g.rowPtr[64])).toBe(1);
    expect(g.colIdx[Number(g.rowPtr[64])]).toBe(65);
    expect(Number(g.rowPtr[67]) - Number(g.rowPtr[66])).toBe(0);
  });

  it('refuses a negative or fractional tail', () => {
    expect(() => kroneckerGraph({ scale: 4, tail: -1 })).toThrow(InvalidArgumentError);
    expect(() => kroneckerGraph({ scale: 4, tail: 2.5 })).toThrow(/tail/);
  });
});
