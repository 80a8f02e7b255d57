// Conformance: a single-source BFS stopped after a few levels and resumed, on one device and
// handed between devices, finds exactly the reference depths; devices that cannot resume refuse.

import { describe, expect, it } from 'vitest';
import { UnsupportedError } from '../../../src/errors.js';
import { checkSteppedBfs, conformanceDevices, family, FAMILIES, sourcesOf } from './harness.js';

const all = await conformanceDevices();
const resumable = all.filter((d) => d.capabilities.bfsResume);
const GRAPHS = Object.keys(FAMILIES).filter((n) => !n.startsWith('banded'));

describe.each(resumable.map((d) => [d.backend, d] as const))('%s: BFS resumed', (_, device) => {
  for (const name of GRAPHS) {
    it(`${name}, in steps of 1, 2 and 5 levels`, async () => {
      const g = family(name);
      for (const source of sourcesOf(g, 2)) {
        for (const step of [1, 2, 5]) await checkSteppedBfs([device], g, source, step);
      }
    });
  }

  it('a resumed search that has nothing left to expand is complete at once', async () => {
    const g = family('grid (road-like)');
    const whole = await device.run({ kind: 'bfs', source: 0 }, { graph: g });
    const deepest = whole.output.frontier.length - 1;
    const r = await device.run({ kind: 'bfs', source: 0, resume: { depth: whole.output.depth, level: deepest + 1 } }, { graph: g });
    expect(r.output.complete).toBe(true);
    expect(Array.from(r.output.frontier)).toEqual([0]);
    expect(Array.from(r.output.depth)).toEqual(Array.from(whole.output.depth));
  });

  it('leaves the depths it resumed from untouched', async () => {
    const g = family('kronecker (power law, undirected)');
    const first = await device.run({ kind: 'bfs', source: 0, maxLevels: 1 }, { graph: g });
    const before = first.output.depth.slice();
    await device.run({ kind: 'bfs', source: 0, resume: { depth: first.output.depth, level: 1 } }, { graph: g });
    expect(first.output.depth).toEqual(before);
  });
});

describe('BFS handed between devices', () => {
  it.skipIf(resumable.length < 2)(`every ${resumable.length} resumable backends in turn, a level or three at a time`, async () => {
    for (const name of GRAPHS) {
      const g = family(name);
      for (const step of [1, 3]) await checkSteppedBfs(resumable, g, sourcesOf(g, 1)[0]!, step);
      await checkSteppedBfs([...resumable].reverse(), g, sourcesOf(g, 2)[1]!, 2);
    }
  });
});

const fixed = all.filter((d) => !d.capabilities.bfsResume);
describe('devices that cannot resume', () => {
  it.skipIf(fixed.length === 0)(
    `${fixed.map((d) => d.backend).join(', ') || 'none here'}: resume and maxLevels are refused with UnsupportedError`,
    async () => {
      const g = family('grid (road-like)');
      for (const device of fixed) await expect(device.run({ kind: 'bfs', source: 0, maxLevels: 1 }, { graph: g })).rejects.toThrow(UnsupportedError);
    },
  );
});
