// BFS runs one pass per level, each with its own overhead: passes equal the number of levels.

import { describe, expect, it } from 'vitest';
import type { BfsOutput } from '../../../src/devices/device.js';
import { gridGraph } from '../../../src/generators/index.js';
import { bfsReference } from '../../../src/kernels/reference.js';
import { cgraDevice } from './helpers.js';

describe('cgra-sim bfs passes', () => {
  const g = gridGraph({ rows: 30, cols: 40 });

  it('passes equal the levels, and each pays the pass overhead', async () => {
    const r = await cgraDevice().run({ kind: 'bfs', source: 0 }, { graph: g });
    const levels = Math.max(...bfsReference(g, 0)) + 1;
    expect(levels).toBe(30 + 40 - 1);
    expect(r.counters['passes']).toBe(levels);
    expect((r.output as BfsOutput).frontier.length).toBe(levels);
    expect(r.counters['passOverheadCycles']).toBe(levels * cgraDevice().spec.params['passOverheadCycles']!.value);
  });

  it('a costlier pass start adds exactly passes x the difference', async () => {
    const cheap = await cgraDevice({ passOverheadCycles: 10 }).run({ kind: 'bfs', source: 0 }, { graph: g });
    const dear = await cgraDevice({ passOverheadCycles: 1010 }).run({ kind: 'bfs', source: 0 }, { graph: g });
    expect(dear.counters['cycles']! - cheap.counters['cycles']!).toBe(1000 * cheap.counters['passes']!);
  });
});
