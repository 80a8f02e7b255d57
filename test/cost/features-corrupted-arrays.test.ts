// Found by probing the WebAssembly entry points the way the native fuzz probes the addon: a
// CsrMatrix whose arrays were changed after validation made graphFeatures throw a bare
// WebAssembly RuntimeError ("memory access out of bounds"), and matrixFeatures write outside its
// reuse tables and corrupt the module's allocator ("abort at ~lib/rt/tlsf.ts"), breaking every
// later call. The engines now check the copy their cores read and refuse it by name.

import { describe, expect, it } from 'vitest';
import { graphFeatures, matrixFeatures } from '../../src/cost/features.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { kroneckerGraph } from '../../src/generators/index.js';

const CORRUPTIONS = {
  'a column index past the end': (_rp: Int32Array, ci: Int32Array) => ci.fill(1 << 29, 0, 50),
  'a negative column index': (_rp: Int32Array, ci: Int32Array) => ci.fill(-7, 0, 50),
  'a row pointer past nnz': (rp: Int32Array) => (rp[10] = 1 << 30),
  'a negative row pointer': (rp: Int32Array) => (rp[10] = -5),
  'decreasing row pointers': (rp: Int32Array) => ([rp[10], rp[20]] = [rp[20]!, rp[10]!]),
};

describe.each(['wasm', 'typescript'] as const)('the %s engine', (engine) => {
  for (const [what, spoil] of Object.entries(CORRUPTIONS)) {
    it(`matrixFeatures and graphFeatures refuse ${what} with a typed error naming themselves`, () => {
      for (const [fn, call] of [
        ['matrixFeatures', matrixFeatures],
        ['graphFeatures', graphFeatures],
      ] as const) {
        const g = kroneckerGraph({ scale: 8, seed: 1 });
        spoil(g.rowPtr as Int32Array, g.colIdx);
        expect(() => call(g, { engine })).toThrow(InvalidArgumentError);
        expect(() => call(g, { engine })).toThrow(new RegExp(`^${fn}: (colIdx|rowPtr)\\[\\d+\\] .* \\(its arrays were changed after validation\\)$`));
      }
    });
  }

  it('the module still works after refusing (no state was corrupted)', () => {
    const good = kroneckerGraph({ scale: 8, seed: 2 });
    const before = matrixFeatures(good, { engine });
    const bad = kroneckerGraph({ scale: 8, seed: 1 });
    bad.colIdx.fill(-7, 0, 50);
    expect(() => matrixFeatures(bad, { engine })).toThrow(InvalidArgumentError);
    expect(matrixFeatures(kroneckerGraph({ scale: 8, seed: 2 }), { engine })).toEqual(before);
  });
});
