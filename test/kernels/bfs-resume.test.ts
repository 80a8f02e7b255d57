// The CPU kernel's resumable search: bad resume state is refused with errors naming the value,
// never read past; the caller's array is copied; a resumed search cannot ask for parents.

import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors.js';
import { generate } from '../../src/generators/index.js';
import { bfs } from '../../src/kernels/bfs.js';
import { nativeAddon } from '../../src/native/addon.js';
import { bfsReference } from '../../src/kernels/reference.js';

const g = generate({ kind: 'grid', rows: 30, cols: 30, seed: 1 });

describe('bfs resume (CPU kernel)', () => {
  it('a search resumed level by level, forced top-down or bottom-up, equals the reference', async () => {
    const want = bfsReference(g, 17);
    for (const direction of ['auto', 'top-down', 'bottom-up'] as const) {
      let r = await bfs(g, 17, { maxLevels: 1, direction });
      let level = 1;
      while (!r.complete) {
        r = await bfs(g, 17, { resume: { depth: r.depth, level }, maxLevels: 1 + (level % 3), direction });
        level += r.frontier.length - 1;
      }
      expect(Array.from(r.depth)).toEqual(Array.from(want));
    }
  });

  it('refuses depths outside [-1, level], naming the vertex and value', async () => {
    const first = await bfs(g, 0, { maxLevels: 2 });
    const spoilt = first.depth.slice();
    spoilt[123] = 7;
    await expect(bfs(g, 0, { resume: { depth: spoilt, level: 2 } })).rejects.toThrow(/depth\[123\] = 7 is outside \[-1, 2\]/);
    spoilt[123] = -5;
    await expect(bfs(g, 0, { resume: { depth: spoilt, level: 2 } })).rejects.toThrow(/depth\[123\] = -5/);
  });

  it('refuses a wrong length, a bad level, parents, and a bad maxLevels', async () => {
    await expect(bfs(g, 0, { resume: { depth: new Int32Array(5), level: 0 } })).rejects.toThrow(InvalidArgumentError);
    await expect(bfs(g, 0, { resume: { depth: new Int32Array(g.rows), level: g.rows } })).rejects.toThrow(/resume.level/);
    await expect(bfs(g, 0, { resume: { depth: new Int32Array(g.rows), level: 0 }, parents: true })).rejects.toThrow(/parent/);
    await expect(bfs(g, 0, { maxLevels: 0 })).rejects.toThrow(/maxLevels/);
    await expect(bfs(g, 0, { maxLevels: 1.5 })).rejects.toThrow(/maxLevels/);
  });

  it('the native export checks its own arguments too', async () => {
    const native = nativeAddon();
    // Argument errors throw at once, kernel errors reject: both become rejections here.
    const addon = { bfs: async (...args: Parameters<typeof native.bfs>) => native.bfs(...args) };
    const depth = new Int32Array(g.rows).fill(-1);
    depth[3] = 99;
    await expect(addon.bfs(g.rows, g.rowPtr, g.colIdx, g.rowPtr, g.colIdx, 0, depth, null, 0, 15, 18, false, 2, 0)).rejects.toThrow(/depth\[3\] = 99/);
    await expect(addon.bfs(g.rows, g.rowPtr, g.colIdx, g.rowPtr, g.colIdx, 0, depth, null, 0, 15, 18, false, g.rows, 0)).rejects.toThrow(/startLevel/);
    await expect(addon.bfs(g.rows, g.rowPtr, g.colIdx, g.rowPtr, g.colIdx, 0, depth, new Int32Array(g.rows), 0, 15, 18, false, 2, 0)).rejects.toThrow(/parent/);
    await expect(addon.bfs(g.rows, g.rowPtr, g.colIdx, g.rowPtr, g.colIdx, 0, depth, null, 0, 15, 18, false, -1, -3)).rejects.toThrow(/maxLevels/);
  });

  it('a resumed search along a long tail stays top-down on its one-vertex frontiers', async () => {
    // Resumed past the core, little is left to explore, and Beamer's ratio alone would walk the
    // rest of the tail bottom-up, a pass over every vertex and a wake of the pool per level.
    const tailed = generate({ kind: 'kronecker', scale: 10, seed: 1, tail: 300 });
    const first = await bfs(tailed, 1024, { maxLevels: 12 });
    expect(first.complete).toBe(false);
    const rest = await bfs(tailed, 1024, { resume: { depth: first.depth, level: 12 } });
    expect(rest.complete).toBe(true);
    expect(rest.frontier.length).toBeGreaterThan(250);
    rest.bottomUp.forEach((b, i) => {
      if (rest.frontier[i]! <= 2) expect(b, `level ${12 + i}`).toBe(0);
    });
    expect(Array.from(rest.depth)).toEqual(Array.from(bfsReference(tailed, 1024)));
  });

  it('resumes into the array it was given (out.depth === resume.depth)', async () => {
    const r = await bfs(g, 5, { maxLevels: 3 });
    const buf = r.depth;
    const s = await bfs(g, 5, { resume: { depth: buf, level: 3 }, out: { depth: buf } });
    expect(s.depth).toBe(buf);
    expect(Array.from(buf)).toEqual(Array.from(bfsReference(g, 5)));
  });
});
