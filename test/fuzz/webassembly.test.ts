// The WebAssembly entry points (rowLengthStats, matrixFeatures, graphFeatures; each on both
// engines where it has two) on matrices whose arrays were changed after validation, the way a
// caller sharing the arrays could: a result, or a typed error naming the function; never a bare
// WebAssembly RuntimeError, and the module keeps giving the same answer for a good matrix after.

import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { graphFeatures, matrixFeatures } from '../../src/cost/features.js';
import { CsrMatrix } from '../../src/data/csr.js';
import { kroneckerGraph } from '../../src/generators/index.js';
import { rowLengthStats } from '../../src/webassembly/row-stats.js';
import { validCsr } from './csr-arbitraries.js';
import { attempt, fuzz, hostileInt } from './harness.js';

const probe = kroneckerGraph({ scale: 6, seed: 9 });
const baseline = JSON.stringify(matrixFeatures(probe));

const wasmCase = fc.record({
  m: validCsr,
  target: fc.constantFrom('rowPtr', 'colIdx', 'none'),
  at: fc.nat(),
  bad: fc.oneof(hostileInt, fc.integer({ min: -3, max: 12 })),
  entry: fc.constantFrom('rowLengthStats', 'matrixFeatures', 'graphFeatures'),
  engine: fc.constantFrom('wasm', 'typescript'),
});

describe('WebAssembly entry points', () => {
  fuzz('rowLengthStats, matrixFeatures, graphFeatures on arrays changed after validation', wasmCase, 300, (c) => {
    // A valid matrix (graphFeatures refuses the non-square ones by name), then one value spoiled in place.
    const a = new CsrMatrix({ rows: c.m.rows as number, cols: c.m.cols as number, rowPtr: c.m.rowPtr as Int32Array, colIdx: c.m.colIdx as Int32Array });
    const arr = c.target === 'rowPtr' ? (a.rowPtr as Int32Array | BigInt64Array) : c.target === 'colIdx' ? a.colIdx : undefined;
    if (arr && arr.length > 0) {
      const v = Number.isFinite(c.bad) ? Math.trunc(c.bad) : -1;
      if (arr instanceof BigInt64Array) arr[c.at % arr.length] = BigInt(v);
      else arr[c.at % arr.length] = v;
    }
    const engine = c.engine as 'wasm' | 'typescript';
    const got = attempt(c.entry, () =>
      c.entry === 'rowLengthStats' ? rowLengthStats(a) : c.entry === 'matrixFeatures' ? matrixFeatures(a, { engine }) : graphFeatures(a, { engine }),
    );
    expect(JSON.stringify(matrixFeatures(probe))).toBe(baseline);
    return got.ok ? 'result' : 'refused';
  });
});
