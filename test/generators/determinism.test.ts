import { describe, expect, it } from 'vitest';
import { denseFeatures } from '../../src/generators/dense.js';
import { generate, type GeneratorSpec } from '../../src/generators/index.js';
import { fingerprint } from './helpers.js';

const SPECS: GeneratorSpec[] = [
  { kind: 'kronecker', scale: 10 },
  { kind: 'kronecker', scale: 10, directed: true, weights: 'f64' },
  { kind: 'erdos-renyi', n: 1000, m: 3000 },
  { kind: 'erdos-renyi', n: 50, m: 1000, directed: true },
  { kind: 'grid', rows: 40, cols: 40, deleteFraction: 0.2 },
  { kind: 'banded', n: 300, halfBandwidth: 6, fill: 0.5 },
];

describe('determinism', () => {
  for (const spec of SPECS) {
    it(`${spec.kind}: same seed gives identical arrays, another seed different ones`, () => {
      const a = generate({ ...spec, seed: 17 });
      const b = generate({ ...spec, seed: 17 });
      expect(b.rowPtr).toEqual(a.rowPtr);
      expect(b.colIdx).toEqual(a.colIdx);
      expect(b.values).toEqual(a.values);
      expect(fingerprint(generate({ ...spec, seed: 18 }))).not.toBe(fingerprint(a));
      expect(fingerprint(generate({ ...spec, seed: 'seventeen' }))).not.toBe(fingerprint(a));
      // The default seed is 0.
      expect(fingerprint(generate(spec))).toBe(fingerprint(generate({ ...spec, seed: 0 })));
    });
  }

  it('kronecker: edges are drawn in blocks of 2^16, one stream each, so raising edgeFactor only adds edges', () => {
    // Guards the stream layout (which would let the blocks run in parallel): 2^10 * 64 edges are
    // exactly block 0, and 2^10 * 128 are blocks 0 and 1.
    const small = generate({ kind: 'kronecker', scale: 10, edgeFactor: 64, seed: 3, directed: true });
    const large = generate({ kind: 'kronecker', scale: 10, edgeFactor: 128, seed: 3, directed: true });
    const has = (i: number, j: number) => {
      const row = large.colIdx.subarray(large.rowStart(i), large.rowStart(i + 1));
      return row.includes(j);
    };
    let missing = 0;
    for (let i = 0; i < small.rows; i++) for (let p = small.rowStart(i); p < small.rowStart(i + 1); p++) if (!has(i, small.colIdx[p]!)) missing++;
    expect(missing).toBe(0);
  });

  it('dense features: same seed, same bytes', () => {
    expect(denseFeatures({ rows: 30, cols: 7, seed: 9, precision: 'f64' }).data).toEqual(denseFeatures({ rows: 30, cols: 7, seed: 9, precision: 'f64' }).data);
  });
});
