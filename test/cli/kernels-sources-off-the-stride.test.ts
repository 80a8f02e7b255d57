// `dype kernels` finds BFS sources wherever the edges are: its stride walk visits only some
// vertices (multiples of 3 on 195 vertices), and a graph whose edges all lay elsewhere got no
// source and failed with "bfs: source must be an integer, got undefined".

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'dype-kernels-sources-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('times BFS from every vertex with an edge when the walk misses them all', async () => {
  const path = join(dir, 'two-edges.mtx');
  // 1-based: vertices 2-3 and 5-6 joined both ways, the other 191 isolated.
  writeFileSync(path, '%%MatrixMarket matrix coordinate pattern general\n195 195 4\n2 3\n3 2\n5 6\n6 5\n');
  const r = await runCli(['kernels', '--data', path, '--repeats', '1', '--json']);
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  const o = JSON.parse(r.out) as { bfs: { searches: number; maxLevels: number }; msbfs: { sources: number } };
  expect(o.bfs.searches).toBe(4);
  expect(o.msbfs.sources).toBe(4);
  expect(o.bfs.maxLevels).toBe(2);
});
