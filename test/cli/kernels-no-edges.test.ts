// `dype kernels` on an input with no stored entries says there is nothing to compute, naming the
// input, with the usage exit code explore and run give an empty graph: a 0 x 0 file printed
// "0.00 FLOP/s" and exited 0, and 3 vertices without edges failed in BFS with
// "bfs: source must be an integer, got undefined".

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'dype-kernels-no-edges-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function mtx(name: string, rows: number): string {
  const path = join(dir, name);
  writeFileSync(path, `%%MatrixMarket matrix coordinate real general\n${rows} ${rows} 0\n`);
  return path;
}

it('refuses vertices without edges in one line, exit 2', async () => {
  const r = await runCli(['kernels', '--data', mtx('isolated.mtx', 3), '--repeats', '1']);
  expect(r.code).toBe(2);
  expect(r.out).toBe('');
  expect(r.err).toBe('dype: kernels: isolated.mtx has no stored entries (3 x 3, 0 nonzeros): there is nothing for the kernels to compute\n');
});

it('refuses an empty matrix the same way instead of printing 0.00 FLOP/s', async () => {
  const r = await runCli(['kernels', '--data', mtx('empty.mtx', 0), '--repeats', '1']);
  expect(r.code).toBe(2);
  expect(r.out).toBe('');
  expect(r.err).toMatch(/^dype: kernels: empty\.mtx has no stored entries \(0 x 0, 0 nonzeros\)/);
});
