// The CPU search's default alpha follows the graph's size against a core's L2 (src/beamer.ts).

import { describe, expect, it } from 'vitest';
import { BEAMER_ALPHA, CPU_SMALL_GRAPH_ALPHA, cpuBeamerAlpha } from '../../src/beamer.js';
import { kroneckerGraph } from '../../src/generators/index.js';
import { bfs } from '../../src/kernels/bfs.js';
import { nativeAddon } from '../../src/native/addon.js';

describe('cpuBeamerAlpha', () => {
  it('takes the lower alpha while the depth array fits in half of L2, Beamer`s above', () => {
    const l2 = 1 << 20;
    expect(cpuBeamerAlpha(1000, l2)).toBe(CPU_SMALL_GRAPH_ALPHA);
    expect(cpuBeamerAlpha(l2 / 8, l2)).toBe(CPU_SMALL_GRAPH_ALPHA);
    expect(cpuBeamerAlpha(l2 / 8 + 1, l2)).toBe(BEAMER_ALPHA);
    expect(CPU_SMALL_GRAPH_ALPHA).toBeLessThan(BEAMER_ALPHA);
  });

  it('reads a plausible L2 from the addon', () => {
    const l2 = nativeAddon().l2CacheBytes();
    expect(l2).toBeGreaterThanOrEqual(64 << 10);
    expect(l2).toBeLessThanOrEqual(1 << 30);
  });
});

describe('bfs without an alpha', () => {
  it('steps as with the machine`s default alpha, which differs from 15 on some search', async () => {
    const g = kroneckerGraph({ scale: 11, edgeFactor: 16, seed: 1 });
    const alpha = cpuBeamerAlpha(g.rows, nativeAddon().l2CacheBytes());
    expect(alpha).toBe(CPU_SMALL_GRAPH_ALPHA);
    let differs = 0;
    for (let s = 0; s < 16; s++) {
      const byDefault = await bfs(g, s);
      const explicit = await bfs(g, s, { alpha });
      const beamer = await bfs(g, s, { alpha: BEAMER_ALPHA });
      expect([...byDefault.bottomUp]).toEqual([...explicit.bottomUp]);
      expect(byDefault.depth).toEqual(beamer.depth);
      if (JSON.stringify([...byDefault.bottomUp]) !== JSON.stringify([...beamer.bottomUp])) differs++;
    }
    expect(differs).toBeGreaterThan(0);
  });
});
