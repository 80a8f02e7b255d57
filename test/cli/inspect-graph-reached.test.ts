// `dype inspect --graph` states the reached fraction as a share of the vertices, averaged over
// the sampled sources: it printed "reached  1" (or "reached  0.2500"), a fraction with no unit.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'dype-inspect-reached-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('writes the reached share in per cent of the vertices', async () => {
  const r = await runCli(['inspect', '--generate', 'grid:rows=10,cols=10', '--graph']);
  expect(r.code).toBe(0);
  expect(r.out).toMatch(/^reached \(mean of samples\)\s+100\.0% of vertices$/m);
});

it('a graph of two equal components reads 50.0%', async () => {
  const path = join(dir, 'two-pairs.txt');
  writeFileSync(path, '0 1\n2 3\n');
  const r = await runCli(['inspect', path, '--undirected', '--graph']);
  expect(r.code).toBe(0);
  expect(r.out).toMatch(/^reached \(mean of samples\)\s+50\.0% of vertices$/m);
});
