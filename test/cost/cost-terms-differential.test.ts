// The cost terms have one source (src/cost/core/cost-terms.ts), built by asc for the model and by
// tsc as the reference: both builds give the same bits for every operator, on every input family
// and edge case, across widths, precisions, row ranges, cache sizes, source counts and BFS levels.

import { describe, expect, it } from 'vitest';
import type { CsrMatrix } from '../../src/data/csr.js';
import { BFS_TERMS, GF_FIELDS, MF_FIELDS, MSBFS_TERMS, SPMM_TERMS } from '../../src/cost/core/cost-terms.js';
import type { FeatureEngine } from '../../src/cost/engine.js';
import { typescriptEngine } from '../../src/cost/engine-typescript.js';
import { wasmEngine } from '../../src/cost/engine-wasm.js';
import { graphFeatures, matrixFeatures } from '../../src/cost/features.js';
import { packGraph, packMatrix } from '../../src/cost/packed.js';
import { generate, parseGeneratorSpec } from '../../src/generators/index.js';
import { fromRows, pathGraph, starGraph } from './feature-helpers.js';

const INPUTS: Record<string, () => CsrMatrix> = {
  kronecker: () => generate(parseGeneratorSpec('kronecker:scale=11,seed=3')),
  'directed erdos-renyi': () => generate(parseGeneratorSpec('erdos-renyi:n=2000,m=12000,directed=true')),
  grid: () => generate(parseGeneratorSpec('grid:rows=50,cols=40,deleteFraction=0.2')),
  banded: () => generate(parseGeneratorSpec('banded:n=3000,halfBandwidth=9')),
  'one vertex': () => fromRows([[]]),
  'empty rows': () => fromRows([[], [3, 1, 1], [], [0, 2, 3]], 4),
  path: () => pathGraph(200),
  star: () => starGraph(80),
};

const CACHES: readonly (readonly [number, number])[] = [
  [0, 0],
  [512, 4096],
  [48 * 1024, 2 ** 21],
  [2 ** 26, 2 ** 30],
  [3.5, 1e12],
];

/** Every term vector both builds produce for one input, in one engine's memory. */
function allTerms(engine: FeatureEngine, mf: Float64Array, gf: Float64Array | undefined, rows: number, nnz: number): number[] {
  const mfPtr = engine.alloc(8 * MF_FIELDS);
  engine.writeF64(mfPtr, mf);
  const gfPtr = engine.alloc(8 * GF_FIELDS);
  if (gf) engine.writeF64(gfPtr, gf);
  const out = engine.alloc(8 * 16);
  const got: number[] = [];
  const read = (count: number): void => {
    got.push(...engine.readF64(out, count));
  };
  for (const [near, far] of CACHES) {
    for (const k of [1, 2, 3, 5, 16, 17, 64, 1000]) {
      for (const bytes of [4, 8]) {
        for (const [r, e] of [
          [rows, nnz],
          [Math.floor(rows / 3), Math.floor(nnz / 3)],
          [0, 0],
        ] as const) {
          engine.spmmTerms(mfPtr, k, bytes, r, e, near, far, out);
          read(SPMM_TERMS);
        }
      }
    }
    if (!gf) continue;
    engine.bfsTerms(gfPtr, near, far, out);
    read(BFS_TERMS);
    for (const sources of [0, 1, 7, 31, 32, 33, 63, 64, 65, 200]) {
      for (const lanes of [32, 64]) {
        engine.msbfsTerms(gfPtr, sources, lanes, near, far, out);
        read(MSBFS_TERMS);
      }
    }
    for (const [frontier, edges, unvisited] of [
      [1, 3, rows - 1],
      [rows / 4, nnz / 2, rows / 2],
      [0, -1, 0],
    ] as const) {
      for (const bottomUp of [0, 1]) {
        for (const call of [0, 1]) {
          engine.bfsLevelTerms(gfPtr, near, far, frontier, edges, unvisited, bottomUp, call, out);
          read(BFS_TERMS);
        }
      }
    }
  }
  engine.free(out);
  engine.free(gfPtr);
  engine.free(mfPtr);
  return got;
}

describe('WebAssembly and TypeScript builds of the cost terms agree', () => {
  for (const [name, make] of Object.entries(INPUTS)) {
    it(name, () => {
      const a = make();
      const mf = matrixFeatures(a);
      const packedM = packMatrix(mf);
      const packedG = a.rows === a.cols ? packGraph(graphFeatures(a), mf) : undefined;
      const wasm = allTerms(wasmEngine(), packedM, packedG, a.rows, a.nnz);
      const ts = allTerms(typescriptEngine(), packedM, packedG, a.rows, a.nnz);
      expect(wasm.length).toBeGreaterThan(100);
      expect(wasm.every((v) => !Number.isNaN(v))).toBe(true);
      // toEqual compares numbers with Object.is: bit-identical, -0 included.
      expect(wasm).toEqual(ts);
    });
  }
});
