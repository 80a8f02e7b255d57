// Found by the shape fuzz: the TypeScript feature engine grew its heap to a byte length that was
// not a multiple of 8 (an empty graph of 65536 vertices asks for 4 * 65537 bytes), and its f64
// view of the heap then threw "RangeError: byte length of Float64Array should be a multiple of 8".

import { expect, it } from 'vitest';
import { graphFeatures } from '../../src/cost/features.js';
import { CsrMatrix } from '../../src/data/csr.js';

it('graphFeatures on the TypeScript engine grows its heap to any size and agrees with WebAssembly', () => {
  const n = 65536;
  const g = new CsrMatrix({ rows: n, cols: n, rowPtr: new Int32Array(n + 1), colIdx: new Int32Array(0) });
  const ts = graphFeatures(g, { engine: 'typescript' });
  expect(ts).toEqual(graphFeatures(g, { engine: 'wasm' }));
});
