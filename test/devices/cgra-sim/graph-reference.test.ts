// cgra-sim's BFS and multi-source BFS give exact depths: equal to the TypeScript reference.

import { describe, expect, it } from 'vitest';
import { symmetrize } from '../../../src/data/convert.js';
import type { BfsOutput, MsBfsOutput } from '../../../src/devices/device.js';
import { bfsReference, msbfsReference } from '../../../src/kernels/reference.js';
import { firstDifference } from '../../support/compare.js';
import { skewedMatrix } from '../../support/random.js';
import { cgraDevice } from './helpers.js';

describe('cgra-sim bfs and msbfs', () => {
  const device = cgraDevice();
  const directed = skewedMatrix(3000, 3000, 12_000, 5, 'pattern');
  const undirected = symmetrize(directed);

  for (const [name, g] of [
    ['directed', directed],
    ['undirected', undirected],
  ] as const) {
    it(`${name}: bfs depths and frontier profile equal the reference`, async () => {
      for (const source of [0, 17, 2999]) {
        const r = await device.run({ kind: 'bfs', source }, { graph: g });
        const out = r.output as BfsOutput;
        const ref = bfsReference(g, source);
        expect(firstDifference(out.depth, ref)).toBe(-1);
        const levels = new Float64Array(Math.max(...ref) + 1);
        for (const d of ref) if (d >= 0) levels[d]!++;
        expect(Array.from(out.frontier)).toEqual(Array.from(levels));
      }
    });

    it(`${name}: msbfs over a sources range equals the reference`, async () => {
      // More than one 32-lane batch, with a repeated source.
      const sources = Int32Array.from({ length: 45 }, (_, i) => (i * 67) % 3000);
      sources[3] = sources[2]!;
      const r = await device.run({ kind: 'msbfs', sources }, { graph: g }, [2, 45]);
      expect(firstDifference((r.output as MsBfsOutput).depths, msbfsReference(g, sources.subarray(2, 45)))).toBe(-1);
    });
  }
});
