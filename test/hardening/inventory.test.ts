// docs/entry-points.md cannot rot: every test file a row names exists, every row names at least
// one, and every function or class src/index.ts exports has a row (the error classes are
// described above the tables).

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import * as dype from '../../src/index.js';

const root = join(import.meta.dirname, '..', '..');
const doc = readFileSync(join(root, 'docs', 'entry-points.md'), 'utf8');
const rows = doc
  .split('\n')
  .filter((l) => l.startsWith('| ') && !l.startsWith('| Entry point') && !l.startsWith('|---'))
  .map((l) => l.split(' | '));

it('the inventory has rows, each naming tests that exist', () => {
  expect(rows.length).toBeGreaterThan(30);
  const missing: string[] = [];
  for (const cells of rows) {
    const tests = [...(cells[cells.length - 1] ?? '').matchAll(/`(test\/[^`]+\.test\.ts)`/g)].map((m) => m[1]!);
    expect(tests.length, `row ${cells[0]} names no test`).toBeGreaterThan(0);
    for (const t of tests) if (!existsSync(join(root, t))) missing.push(`${cells[0]}: ${t}`);
  }
  expect(missing).toEqual([]);
});

it('every function and class of the public API has a row', () => {
  const listed = new Set(rows.flatMap((cells) => [...(cells[0] ?? '').matchAll(/`([A-Za-z_][\w.]*)`/g)].map((m) => m[1]!.split('.')[0]!)));
  const errors = new Set(
    Object.entries(dype)
      .filter(([, v]) => typeof v === 'function' && (v as { prototype?: unknown }).prototype instanceof Error)
      .map(([k]) => k),
  );
  const unlisted = Object.entries(dype)
    .filter(([k, v]) => typeof v === 'function' && !errors.has(k) && !listed.has(k))
    .map(([k]) => k);
  expect(unlisted).toEqual([]);
  for (const e of errors) expect(doc, `error class ${e}`).toContain(`\`${e}\``);
});
