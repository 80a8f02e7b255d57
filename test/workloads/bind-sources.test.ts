// BFS sources are chosen at bind time: "max-degree" is the vertex of largest out-degree (the
// first of equals); msbfs takes `sources` distinct vertices, seeded, sorted, preferring
// vertices with out-edges, and refuses more sources than vertices.

import { describe, expect, it } from 'vitest';
import type { CsrMatrix } from '../../src/data/csr.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { generate } from '../../src/generators/index.js';
import { bindWorkload } from '../../src/workloads/bind.js';
import { defineWorkload } from '../../src/workloads/definition.js';
import { workload } from '../../src/workloads/library.js';
import { csr } from './helpers.js';
import { thrownBy } from './workload-helpers.js';

const kron = generate({ kind: 'kronecker', scale: 8, edgeFactor: 4, seed: 3 }); // 256 vertices, some isolated

function maxDegree(g: CsrMatrix): number {
  let best = 0;
  for (let i = 1; i < g.rows; i++) if (g.rowLength(i) > g.rowLength(best)) best = i;
  return best;
}

function bfsFrom(source: number | string): ReturnType<typeof defineWorkload> {
  return defineWorkload({
    name: 'bfs-from',
    inputs: { g: { kind: 'sparse', square: true } },
    operators: [{ id: 'd', kind: 'bfs', inputs: ['g'], params: { source } }],
    outputs: ['d'],
  });
}

describe('bindWorkload BFS sources', () => {
  it('bfs "max-degree" picks the vertex of largest out-degree', () => {
    const b = bindWorkload(workload('bfs'), kron);
    expect(b.ops[0]!.source).toBe(maxDegree(kron));
    expect(kron.rowLength(b.ops[0]!.source!)).toBeGreaterThan(kron.rowLength(0));
  });

  it('bfs "max-degree" takes the first of vertices of equal degree, and counts out-edges only', () => {
    // Out-degrees 1, 3, 0, 3; vertex 2 has the most in-edges.
    const g = csr(4, [[2], [0, 2, 3], [], [0, 1, 2]]);
    expect(bindWorkload(workload('bfs'), g).ops[0]!.source).toBe(1);
  });

  it('bfs takes a source expression, and refuses one outside the graph', () => {
    expect(bindWorkload(bfsFrom('g.rows - 1'), kron).ops[0]!.source).toBe(255);
    expect(bindWorkload(bfsFrom(7), kron).ops[0]!.source).toBe(7);
    const e = thrownBy(() => bindWorkload(bfsFrom('g.rows'), kron));
    expect(e).toBeInstanceOf(InvalidArgumentError);
    expect(e.message).toBe('bindWorkload: bfs-from: operator d (bfs): source must be a vertex in [0, 256), got 256');
    expect(thrownBy(() => bindWorkload(bfsFrom('1 / 2'), kron)).message).toContain('got 0.5');
  });

  it('msbfs picks as many distinct vertices as asked, sorted, each with out-edges while there are enough', () => {
    for (const count of [1, 5, 64]) {
      const s = bindWorkload(workload('msbfs'), kron, { params: { sources: count } }).ops[0]!.sources!;
      expect(s).toBeInstanceOf(Int32Array);
      expect(s.length).toBe(count);
      for (let i = 1; i < s.length; i++) expect(s[i]!).toBeGreaterThan(s[i - 1]!);
      for (const v of s) {
        expect(v).toBeGreaterThanOrEqual(0);
        expect(v).toBeLessThan(256);
        expect(kron.rowLength(v)).toBeGreaterThan(0);
      }
    }
    expect(bindWorkload(workload('msbfs'), kron).ops[0]!.sources!.length).toBe(64); // the workload default
  });

  it('msbfs sources are the same for the same seed and differ for another', () => {
    const at = (seed: number): Int32Array => bindWorkload(workload('msbfs'), kron, { seed }).ops[0]!.sources!;
    expect(at(4)).toEqual(at(4));
    expect(at(4)).not.toEqual(at(5));
  });

  it('msbfs takes vertices without out-edges only once those with out-edges run out', () => {
    // Vertices 0 and 3 have out-edges; 1, 2 and 4 have none.
    const g = csr(5, [[1], [], [], [4], []]);
    const pick = (count: number): number[] => [...bindWorkload(workload('msbfs'), g, { params: { sources: count } }).ops[0]!.sources!];
    expect(pick(2)).toEqual([0, 3]);
    expect(pick(3)).toEqual([0, 1, 3]);
    expect(pick(5)).toEqual([0, 1, 2, 3, 4]);
  });

  it('msbfs refuses more sources than vertices, and fewer than one', () => {
    const e = thrownBy(() => bindWorkload(workload('msbfs'), kron, { params: { sources: 257 } }));
    expect(e).toBeInstanceOf(InvalidArgumentError);
    expect(e.message).toBe("bindWorkload: msbfs: operator depths (msbfs): sources must be an integer in [1, 256] (the graph's vertices), got 257");
    expect(thrownBy(() => bindWorkload(workload('msbfs'), kron, { params: { sources: 0 } })).message).toContain('got 0');
    expect(bindWorkload(workload('msbfs'), kron, { params: { sources: 256 } }).ops[0]!.sources!).toEqual(Int32Array.from({ length: 256 }, (_, i) => i));
  });
});
