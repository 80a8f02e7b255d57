// `dype inspect --parts N`: the row partition distributed operators would use, as a table and in
// --json (bounds, per-part entries, cut entries and halos, edge cut, imbalance); square inputs only.

import { expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

it('shows the row partition and what it costs, in text and JSON', async () => {
  const text = await runCli(['inspect', '--generate', 'grid:rows=40,cols=40', '--parts', '4']);
  expect(text.code).toBe(0);
  expect(text.out).toMatch(
    /Row partition into 4 contiguous parts balanced by work \(entries \+ rows\): edge cut [\d,]+ entries \([\d.]+%\), halo [\d,]+ rows in all, imbalance 1\.\d{3}/,
  );
  const r = await runCli(['inspect', '--generate', 'grid:rows=40,cols=40', '--parts', '4', '--json']);
  const o = JSON.parse(r.out) as {
    matrix: { rows: number; nnz: number };
    partition: { bounds: number[]; parts: { entries: number; halo: number }[]; edgeCut: number };
  };
  expect(o.partition.bounds).toHaveLength(5);
  expect(o.partition.bounds[4]).toBe(o.matrix.rows);
  expect(o.partition.parts.reduce((s, p) => s + p.entries, 0)).toBe(o.matrix.nnz);
  // A grid in row order: each cut between blocks crosses about one grid row of edges.
  expect(o.partition.edgeCut).toBeGreaterThan(0);
  expect(o.partition.parts.every((p) => p.halo > 0 && p.halo <= 80)).toBe(true);
});

it('refuses a bad part count with a usage error', async () => {
  const bad = await runCli(['inspect', '--generate', 'grid:rows=4,cols=4', '--parts', '0']);
  expect(bad.code).toBe(2);
  expect(bad.err).toMatch(/--parts/);
});
