// Resumed single-source BFS called with arbitrary search states: on every native entry point
// that resumes (bfs, and the simulators' gpuSimBfs and cgraBfs where they take a start level), a
// depth array with values anywhere in [-3, level + 2], a start level from -2 to n + 1 and a level
// limit from -2 to 5 must either give what a plain level-synchronous continuation gives (values
// in [-1, level]: the frontier is depth === level, the visited depth >= 0), or be refused with a
// coded error naming the entry point. Graphs are valid here: hostile CSR arrays are native.test.ts's.

import fc from 'fast-check';
import { describe, expect } from 'vitest';
import type { CsrMatrix } from '../../src/data/csr.js';
import { cgraSimBackend } from '../../src/devices/backends/cgra-sim.js';
import { gpuSimBackend } from '../../src/devices/backends/gpu-sim.js';
import { loadProfile, specValues } from '../../src/devices/spec.js';
import { generate } from '../../src/generators/index.js';
import { inEdgesOf } from '../../src/kernels/in-edges.js';
import { nativeAddon } from '../../src/native/addon.js';
import { expectCodedError, fuzzAsync, type Outcome } from './harness.js';

type Fn = (...args: unknown[]) => unknown;
const addon = nativeAddon() as unknown as Record<string, Fn>;
const CGRA = specValues(loadProfile('fuzz', 'cgra-sim', 'hycube-4x4', cgraSimBackend.params));
const GPU_SIM = specValues(loadProfile('fuzz', 'gpu-sim', 'h100-sxm', gpuSimBackend.params));

const GRAPHS: CsrMatrix[] = [
  generate({ kind: 'kronecker', scale: 5, seed: 1 }),
  generate({ kind: 'kronecker', scale: 5, seed: 2, directed: true }),
  generate({ kind: 'grid', rows: 6, cols: 7, deleteFraction: 0.2, seed: 3 }),
  generate({ kind: 'erdos-renyi', n: 30, m: 40, directed: true, seed: 4 }),
  generate({ kind: 'kronecker', scale: 4, seed: 5, tail: 6 }),
];
const TRANSPOSES = GRAPHS.map((g) => inEdgesOf('fuzz', g, undefined));

/** A level-synchronous continuation of the search held in `depth` from `level`, `limit` levels at most (0: none). */
function continuation(g: CsrMatrix, depth: Int32Array, level: number, limit: number): Int32Array {
  const d = depth.slice();
  for (let steps = 0; limit === 0 || steps < limit; steps++) {
    let found = false;
    for (let u = 0; u < g.rows; u++) {
      if (d[u] !== level) continue;
      for (let p = Number(g.rowPtr[u]); p < Number(g.rowPtr[u + 1]); p++) {
        const v = g.colIdx[p]!;
        if (d[v] === -1) {
          d[v] = level + 1;
          found = true;
        }
      }
    }
    level++;
    if (!found) break;
  }
  return d;
}

const resumeCase = fc
  .record({
    graph: fc.nat(GRAPHS.length - 1),
    entry: fc.constantFrom('bfs', 'gpuSimBfs', 'cgraBfs'),
    seed: fc.nat(),
    level: fc.integer({ min: -2, max: 40 }),
    limit: fc.integer({ min: -2, max: 5 }),
    spoil: fc.boolean(),
  })
  .map((c) => {
    const g = GRAPHS[c.graph]!;
    // A search state: a real partial search (depths up to the level), spoilt now and then.
    const rng = fc.sample(fc.array(fc.integer({ min: -3, max: Math.max(2, c.level + 2) }), { minLength: g.rows, maxLength: g.rows }), {
      numRuns: 1,
      seed: c.seed,
    })[0]!;
    const depth = new Int32Array(g.rows).fill(-1);
    if (c.level >= 0) {
      const source = c.seed % g.rows;
      depth[source] = 0;
      const partial = continuation(g, depth, 0, Math.max(1, c.level));
      depth.set(partial);
      for (let v = 0; v < g.rows; v++) if (depth[v]! > c.level) depth[v] = -1;
    }
    if (c.spoil) for (let v = 0; v < g.rows; v += 7) depth[v] = rng[v]!;
    return { ...c, g, gi: TRANSPOSES[c.graph]!, depth };
  });

describe('fuzz: resumed BFS on the native entry points', () => {
  fuzzAsync('bfs, gpuSimBfs, cgraBfs resumed from arbitrary states: the continuation or coded refusal', resumeCase, 300, async (c) => {
    const { g, gi } = c;
    const out = c.depth.slice();
    const inline = c.seed % 2 === 0;
    const args =
      c.entry === 'bfs'
        ? [g.rows, g.rowPtr, g.colIdx, gi.rowPtr, gi.colIdx, 0, out, null, c.seed % 3, 15, 18, inline, c.level, c.limit]
        : c.entry === 'gpuSimBfs'
          ? [g.rows, g.rowPtr, g.colIdx, gi.rowPtr, gi.colIdx, 0, out, GPU_SIM, inline, c.level, c.limit]
          : [g.rows, g.rowPtr, g.colIdx, 0, out, CGRA, inline, c.level, c.limit];
    const valid = c.level >= -1 && c.level < g.rows && c.limit >= 0 && (c.level === -1 || c.depth.every((d) => d >= -1 && d <= c.level));
    let settled: { ok: true } | { ok: false; error: unknown };
    try {
      await addon[c.entry]!(...args);
      settled = { ok: true };
    } catch (error) {
      settled = { ok: false, error };
    }
    if (!valid) {
      expect(settled.ok, `${c.entry} accepted level ${c.level}, limit ${c.limit}`).toBe(false);
      expectCodedError((settled as { error: unknown }).error, c.entry);
      return 'refused' as Outcome;
    }
    if (!settled.ok) throw settled.error;
    if (c.level === -1) return 'result' as Outcome; // a fresh search from vertex 0: native.test.ts checks those
    expect(Array.from(out)).toEqual(Array.from(continuation(g, c.depth, c.level, c.limit)));
    return 'result' as Outcome;
  });
});
