// The multi-source BFS terms count how often a bit-parallel search re-processes a vertex from the
// graph's own depth distribution, and take the device's word width: a road-like path is
// re-processed about once per source, a star's waves arrive together; a 32-lane device runs 64
// sources in two words where a 64-lane one needs one.

import { describe, expect, it } from 'vitest';
import { graphFeatures, matrixFeatures } from '../../src/cost/features.js';
import { distinctDepths, msbfsTerms, packGraph, ResidentFeatures } from '../../src/cost/packed.js';
import { generate } from '../../src/generators/index.js';
import { pathGraph, starGraph } from './feature-helpers.js';

const packed = (g: ReturnType<typeof pathGraph>): ResidentFeatures => new ResidentFeatures(packGraph(graphFeatures(g), matrixFeatures(g)));

describe('distinct depths among many sources', () => {
  it('is about the source count on a long path and two on a star', () => {
    const path = graphFeatures(pathGraph(2000));
    const star = graphFeatures(starGraph(2000));
    expect(distinctDepths(path, 1)).toBeCloseTo(1, 12);
    expect(distinctDepths(path, 32)).toBeGreaterThan(28);
    expect(distinctDepths(star, 32)).toBeLessThan(2.01);
  });

  it('is a few on a small-world graph, far below its level count', () => {
    const g = graphFeatures(generate({ kind: 'kronecker', scale: 12, edgeFactor: 8, seed: 1 }));
    expect(distinctDepths(g, 64)).toBeLessThan(4);
  });
});

describe('multi-source BFS terms', () => {
  const near = 8192;
  const far = 32768;
  it('re-process a road graph per source and a star once', () => {
    const path = pathGraph(3000);
    const star = starGraph(3000);
    const repeats = (g: typeof path): number =>
      msbfsTerms(packed(g), 32, { near, far, lanes: 64 })[7]! / msbfsTerms(packed(g), 32, { near, far, lanes: 64 })[3]!;
    expect(repeats(path)).toBeGreaterThan(25);
    expect(repeats(star)).toBeLessThan(1.01);
  });

  it('count words by the device lanes', () => {
    const g = packed(generate({ kind: 'grid', rows: 30, cols: 30, seed: 1 }));
    const wide = msbfsTerms(g, 64, { near, far, lanes: 64 });
    const narrow = msbfsTerms(g, 64, { near, far, lanes: 32 });
    expect(narrow[1]! / wide[1]!).toBe(2); // levels x words
    expect(narrow[3]! / wide[3]!).toBe(2); // edges x words
    expect(narrow[2]).toBe(wide[2]); // depth writes: one per source either way
  });
});
