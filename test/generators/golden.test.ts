// Golden fingerprints: the exact bytes a few fixed specs produce. They were computed once with
// this implementation and pinned, so any change to the random stream, the seeding or the
// construction (which would silently change every dataset and benchmark) fails here. Change a
// hash only on purpose, and say so in the changelog.

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { denseFeatures } from '../../src/generators/dense.js';
import { generate, type GeneratorSpec } from '../../src/generators/index.js';
import { fingerprint } from './helpers.js';

const GOLDEN: Array<[GeneratorSpec, string]> = [
  [{ kind: 'kronecker', scale: 8, seed: 1 }, '6f0bf51d853bd184a9c644363ddbd8b74af64cee653094f8416e7f330bbd2f77'],
  [
    { kind: 'kronecker', scale: 8, edgeFactor: 4, seed: 'graph500', directed: true, weights: 'f32' },
    '90aad13b4a81200876db2368915a624680f383855dfa1e775d09c5c4c90e11cd',
  ],
  [{ kind: 'erdos-renyi', n: 300, m: 1000, seed: 2 }, '5e23a98a78a64bb598e83f074a17ca839da0860196da69406d448855075ca9f9'],
  [{ kind: 'erdos-renyi', n: 40, m: 500, seed: 2, directed: true, weights: 'f64' }, '8d7a088707b77074fa6ba1e4bdbd142aec49e845798b4eedc106e197acb0aeb3'],
  [{ kind: 'grid', rows: 20, cols: 30, deleteFraction: 0.2, seed: 3 }, '5c462a67c6ac858df29a76484dfbb6c49c1c40c95d51033d0fa8d07407478548'],
  [{ kind: 'banded', n: 200, halfBandwidth: 5, fill: 0.5, seed: 4 }, '3fa04a3458bc87f88d312f8ee1f6dc6741c39e7f83fbf0c66686b445f04758eb'],
  [{ kind: 'banded', n: 200, halfBandwidth: 5, fill: 0.5, seed: 4, precision: 'f32' }, '4ca943b5c4405d19e5e4dd96efcbe9cb4be18b9d21a5a50df3be56d80bb0b0a2'],
];

describe('golden fingerprints', () => {
  for (const [spec, hash] of GOLDEN) {
    it(`${JSON.stringify(spec)}`, () => {
      expect(fingerprint(generate(spec))).toBe(hash);
    });
  }

  it('dense features', () => {
    const bytes = (x: Float32Array | Float64Array) =>
      createHash('sha256')
        .update(new Uint8Array(x.buffer, x.byteOffset, x.byteLength))
        .digest('hex');
    expect(bytes(denseFeatures({ rows: 16, cols: 8, seed: 5 }).data)).toBe('c3b651c4a9223b64b19dbf9ecae3a556545470960fd851df32477c71e5762c2f');
    expect(bytes(denseFeatures({ rows: 16, cols: 8, seed: 5, precision: 'f64' }).data)).toBe(
      '094a81eb77afc38aa71e68e1e4e41b6c359987e0ed9d3b678c03fca21dbee235',
    );
  });
});
