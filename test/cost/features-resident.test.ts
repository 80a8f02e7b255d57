// A matrix is copied into WebAssembly memory once and reused; releasing it frees the copy.

import { describe, expect, it } from 'vitest';
import { matrixFeatures, graphFeatures } from '../../src/cost/features.js';
import { releaseResident, wasmEngine } from '../../src/cost/engine-wasm.js';
import { generate, parseGeneratorSpec } from '../../src/generators/index.js';

describe('resident CSR in WebAssembly memory', () => {
  it('is copied once per matrix object and shared by both feature sets', () => {
    const a = generate(parseGeneratorSpec('kronecker:scale=10'));
    const engine = wasmEngine();
    const first = engine.resident(a, 'test');
    const f = matrixFeatures(a);
    graphFeatures(a);
    expect(engine.resident(a, 'test')).toBe(first);
    expect(matrixFeatures(a)).toEqual(f);
    releaseResident(a);
    const again = engine.resident(a, 'test');
    expect(again).not.toBe(first);
    expect(matrixFeatures(a)).toEqual(f);
    releaseResident(a);
  });
});
