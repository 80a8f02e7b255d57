// Conformance: BFS and multi-source BFS on every backend and generator family; depths exact.

import { describe, it } from 'vitest';
import { checkBfs, checkMsbfs, conformanceDevices, family, FAMILIES, sourcesOf } from './harness.js';

const devices = await conformanceDevices();
const GRAPHS = Object.keys(FAMILIES).filter((n) => !n.startsWith('banded'));

describe.each(devices.map((d) => [d.backend, d] as const))('%s: BFS', (_, device) => {
  for (const name of GRAPHS) {
    it(name, async () => {
      const g = family(name);
      await checkBfs(device, g, sourcesOf(g, 4));
      const many = Int32Array.from(sourcesOf(g, 70));
      await checkMsbfs(device, g, many);
      await checkMsbfs(device, g, many, [3, 40]);
      await checkMsbfs(device, g, many, [5, 5]);
    });
  }

  it('a banded matrix as a graph', async () => {
    const g = family('banded (FEM-like, f64 values)');
    await checkBfs(device, g, [0, 1000]);
  });
});
