// referenceValues of bfs and msbfs: the depths bfsReference gives from the bound sources.

import { describe, expect, it } from 'vitest';
import { generate } from '../../src/generators/index.js';
import { bfsReference } from '../../src/kernels/reference.js';
import { bindWorkload } from '../../src/workloads/bind.js';
import { workload } from '../../src/workloads/library.js';
import { referenceValues } from '../../src/workloads/reference.js';

const graph = generate({ kind: 'kronecker', scale: 8, edgeFactor: 4, seed: 3 });

describe('referenceValues: breadth-first search', () => {
  it('bfs gives the depths from the max-degree vertex', () => {
    const b = bindWorkload(workload('bfs'), graph);
    const depth = referenceValues(b)[b.outputs[0]!] as Int32Array;
    const source = b.ops[0]!.source!;
    expect(depth).toBeInstanceOf(Int32Array);
    expect(depth).toEqual(bfsReference(graph, source));
    expect(depth[source]).toBe(0);
    expect(Math.max(...depth)).toBeGreaterThan(1);
    expect(depth.filter((d) => d >= 0).length).toBeGreaterThan(128);
  });

  it('msbfs gives one row of depths per bound source, in source order', () => {
    const b = bindWorkload(workload('msbfs'), graph, { params: { sources: 6 } });
    const depths = referenceValues(b)[b.outputs[0]!] as Int32Array;
    const sources = b.ops[0]!.sources!;
    expect(depths.length).toBe(6 * 256);
    sources.forEach((s, k) => {
      const row = depths.subarray(k * 256, (k + 1) * 256);
      expect(row).toEqual(bfsReference(graph, s));
      expect(row[s]).toBe(0);
    });
  });
});
