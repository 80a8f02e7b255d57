// Bad arguments are typed errors naming the function, raised before any WebAssembly runs.

import { describe, expect, it } from 'vitest';
import { graphFeatures, matrixFeatures } from '../../src/cost/features.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { fromRows } from './feature-helpers.js';

const a = fromRows([[0], [1]]);

describe('feature extraction arguments', () => {
  it('refuses non-matrices', () => {
    expect(() => matrixFeatures({} as never)).toThrow(InvalidArgumentError);
    expect(() => matrixFeatures(null as never)).toThrow(/^matrixFeatures: a must be a CsrMatrix, got null/);
    expect(() => graphFeatures([] as never)).toThrow(/^graphFeatures: g must be a CsrMatrix, got Array\(0\)/);
  });

  it('refuses a rectangular graph', () => {
    expect(() => graphFeatures(fromRows([[0, 2]], 3))).toThrow(/^graphFeatures: g must be square \(a graph\), got 1x3/);
  });

  it('suggests the option meant', () => {
    expect(() => matrixFeatures(a, { sampleRow: 5 } as never)).toThrow(/^matrixFeatures: unknown option "sampleRow" \(did you mean "sampleRows"\?\)/);
    expect(() => graphFeatures(a, { source: 2 } as never)).toThrow(/^graphFeatures: unknown option "source" \(did you mean "sources"\?\)/);
    expect(() => matrixFeatures(a, { engine: 'wasn' as never })).toThrow(
      /^matrixFeatures: options.engine must be one of "wasm", "typescript", got "wasn" \(did you mean "wasm"\?\)/,
    );
  });

  it('checks option ranges', () => {
    expect(() => matrixFeatures(a, { sampleRows: 0 })).toThrow(/^matrixFeatures: options.sampleRows must be in \[1, /);
    expect(() => matrixFeatures(a, { sampleAbove: -1 })).toThrow(/^matrixFeatures: options.sampleAbove must be in \[0, /);
    expect(() => graphFeatures(a, { sources: 1.5 })).toThrow(/^graphFeatures: options.sources must be an integer, got 1.5/);
    expect(() => graphFeatures(a, { sources: 65 })).toThrow(/^graphFeatures: options.sources must be in \[1, 64\]/);
    expect(() => matrixFeatures(a, 3 as never)).toThrow(/^matrixFeatures: options must be an object, got 3/);
  });
});
