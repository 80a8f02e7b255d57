// The WebAssembly build and the plain TypeScript build of the same cores (src/cost/core) agree to
// the bit: the cores use only IEEE-exact operations (+ - * / sqrt floor, their own ln and exp),
// so no tolerance is needed, floating sums included.

import { describe, expect, it } from 'vitest';
import { CsrMatrix } from '../../src/data/csr.js';
import { graphFeatures, matrixFeatures } from '../../src/cost/features.js';
import { generate, parseGeneratorSpec } from '../../src/generators/index.js';
import { fromRows, pathGraph, starGraph } from './feature-helpers.js';

const GENERATED = [
  'kronecker:scale=12,seed=3',
  'kronecker:scale=10,edgeFactor=4,directed=true',
  'erdos-renyi:n=3000,m=20000,seed=2',
  'erdos-renyi:n=500,m=2000,directed=true',
  'grid:rows=60,cols=50,deleteFraction=0.3',
  'banded:n=2000,halfBandwidth=7,fill=0.5',
];

function wide(a: CsrMatrix): CsrMatrix {
  return new CsrMatrix({ rows: a.rows, cols: a.cols, rowPtr: BigInt64Array.from(a.rowPtr as Int32Array, (x) => BigInt(x)), colIdx: a.colIdx });
}

const EDGE_CASES: Record<string, () => CsrMatrix> = {
  empty: () => fromRows([], 0),
  'one vertex': () => fromRows([[]]),
  'one vertex with a loop': () => fromRows([[0]]),
  'empty rows': () => fromRows([[], [3, 1, 1], [], [], [0, 2, 3]], 4),
  rectangular: () => fromRows([[0, 9], [5], [1, 2, 3, 4]], 10),
  '64-bit row pointers': () => fromRows([[1], [0, 2], [1]], 3, true),
  path: () => pathGraph(300),
  star: () => starGraph(100),
};

function same(a: unknown, b: unknown): void {
  // toEqual compares numbers with Object.is: bit-identical, NaN and -0 included.
  expect(a).toEqual(b);
}

describe('WebAssembly and TypeScript builds agree', () => {
  for (const spec of GENERATED) {
    it(spec, () => {
      const a = generate(parseGeneratorSpec(spec));
      same(matrixFeatures(a), matrixFeatures(a, { engine: 'typescript' }));
      // Forcing the sampled path checks the random draws too.
      const sampled = { sampleAbove: 100, sampleRows: 500 };
      same(matrixFeatures(a, sampled), matrixFeatures(a, { ...sampled, engine: 'typescript' }));
      if (a.rows === a.cols) same(graphFeatures(a, { sources: 5 }), graphFeatures(a, { sources: 5, engine: 'typescript' }));
    });
  }

  for (const [name, make] of Object.entries(EDGE_CASES)) {
    it(name, () => {
      const a = make();
      same(matrixFeatures(a), matrixFeatures(a, { engine: 'typescript' }));
      if (a.rows === a.cols) same(graphFeatures(a), graphFeatures(a, { engine: 'typescript' }));
    });
  }

  it('64-bit row pointers give the features of the 32-bit ones', () => {
    const a = generate(parseGeneratorSpec('kronecker:scale=9'));
    same(matrixFeatures(wide(a)), matrixFeatures(a));
    same(graphFeatures(wide(a)), graphFeatures(a));
  });
});
