import { describe, expect, it } from 'vitest';
import { LimitError } from '../../src/errors.js';
import { bandedMatrix } from '../../src/generators/banded.js';
import { denseFeatures } from '../../src/generators/dense.js';
import { erdosRenyiGraph } from '../../src/generators/erdos-renyi.js';
import { gridGraph } from '../../src/generators/grid.js';
import { kroneckerGraph } from '../../src/generators/kronecker.js';

// Each of these would need gigabytes; they must fail at once, before allocating anything.
describe('size limits', () => {
  const cases: Array<[string, () => unknown, RegExp]> = [
    ['kronecker scale 31', () => kroneckerGraph({ scale: 31 }), /^kroneckerGraph: scale = 31 is above the limit of 30/],
    [
      'kronecker scale 26 x 16 undirected',
      () => kroneckerGraph({ scale: 26 }),
      /^kroneckerGraph: scale 26 with edgeFactor 16 \(undirected\) would store 2147483648 entries/,
    ],
    ['kronecker directed edge count', () => kroneckerGraph({ scale: 27, edgeFactor: 16, directed: true }), /would store 2147483648 entries/],
    ['erdos-renyi vertices', () => erdosRenyiGraph({ n: 2 ** 31, m: 1 }), /^erdosRenyiGraph: n = 2147483648 is above the limit/],
    ['erdos-renyi edges', () => erdosRenyiGraph({ n: 1e6, m: 2 ** 30 }), /^erdosRenyiGraph: n = 1000000 with m = 1073741824 \(undirected\) would store/],
    ['grid vertices', () => gridGraph({ rows: 50000, cols: 50000 }), /^gridGraph: a 50000x50000 grid has 2500000000 vertices/],
    ['grid entries', () => gridGraph({ rows: 30000, cols: 30000 }), /^gridGraph: a 30000x30000 grid would store/],
    ['banded entries', () => bandedMatrix({ n: 1e9, halfBandwidth: 10 }), /^bandedMatrix: .* more than the limit/],
    ['banded bandwidth', () => bandedMatrix({ n: 1e8, halfBandwidth: 2 ** 22 }), /^bandedMatrix: halfBandwidth = 4194304 is above the limit/],
    ['dense features', () => denseFeatures({ rows: 1e5, cols: 1e5 }), /^denseFeatures: a 100000x100000 dense matrix/],
  ];
  for (const [name, run, message] of cases) {
    it(`refuses ${name} with a LimitError`, () => {
      const t0 = performance.now();
      expect(run).toThrow(LimitError);
      expect(run).toThrow(message);
      expect(performance.now() - t0).toBeLessThan(200);
    });
  }
});
