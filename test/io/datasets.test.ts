// Every real dataset beside the checkout loads with the sizes its README lists, and the raw SNAP
// and METIS originals load to the same matrices as their Matrix Market conversions. Skipped when
// ../shared/datasets is absent (a user's clone does not have it).

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { CsrMatrix } from '../../src/data/csr.js';
import { loadEdgeList, loadMatrixMarket, loadMetis } from '../../src/io/index.js';
import { expectSameCsr } from './helpers.js';

const DATASETS = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../shared/datasets');
const present = existsSync(join(DATASETS, 'README.md'));

interface Row {
  readonly n: number;
  readonly stored: number;
  readonly selfLoops: number | undefined;
}

/** The README's table: `| file | n | stored entries | ...`, numbers with thousands separators. */
function readTable(): Map<string, Row> {
  const rows = new Map<string, Row>();
  const num = (s: string): number => Number(s.replace(/,/g, ''));
  for (const line of readFileSync(join(DATASETS, 'README.md'), 'utf8').split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (!cells[1]?.endsWith('.mtx')) continue;
    const stored = /^([\d,]+)/.exec(cells[3] ?? '');
    const loops = /([\d,]+) self-loops/.exec(cells[3] ?? '');
    rows.set(cells[1], { n: num(cells[2]!), stored: num(stored![1]!), selfLoops: loops ? num(loops[1]!) : undefined });
  }
  return rows;
}

function diagonal(a: CsrMatrix): number {
  let d = 0;
  for (let r = 0; r < a.rows; r++) {
    for (let p = a.rowStart(r); p < a.rowStart(r + 1); p++) if (a.colIdx[p] === r) d++;
  }
  return d;
}

describe.skipIf(!present)('real datasets', () => {
  const table = present ? readTable() : new Map<string, Row>();
  const files = present
    ? readdirSync(DATASETS)
        .filter((f) => f.endsWith('.mtx'))
        .sort()
    : [];

  it('has a README row for every .mtx file and a file for every row', () => {
    expect([...table.keys()].sort()).toEqual(files);
  });

  it.each(files)('%s matches the README', async (file) => {
    const row = table.get(file)!;
    const a = await loadMatrixMarket(join(DATASETS, file), { format: 'coordinate' });
    expect([a.rows, a.cols]).toEqual([row.n, row.n]);
    const diag = diagonal(a);
    // A symmetric file stores one triangle: every off-diagonal entry comes back twice.
    expect(a.nnz).toBe(a.symmetric ? 2 * row.stored - diag : row.stored);
    if (row.selfLoops !== undefined) expect(diag).toBe(row.selfLoops);
    expect(a.sortedColumns).toBe(true);
  });

  it('facebook_combined.txt (SNAP, undirected) equals facebook_combined.mtx', async () => {
    const { matrix, ids } = await loadEdgeList(join(DATASETS, 'raw/facebook_combined.txt'), { undirected: true });
    expect(Array.from(ids)).toEqual(Array.from({ length: 4039 }, (_, i) => i));
    expect(matrix.symmetric).toBe(true);
    expectSameCsr(matrix, await loadMatrixMarket(join(DATASETS, 'facebook_combined.mtx'), { format: 'coordinate' }));
  });

  it('wiki-Vote.txt (SNAP, directed, sparse ids) equals wiki-Vote.mtx', async () => {
    const { matrix, ids } = await loadEdgeList(join(DATASETS, 'raw/wiki-Vote.txt'));
    expect(ids.length).toBe(7115);
    expect(ids[ids.length - 1]).toBeGreaterThan(7115);
    expectSameCsr(matrix, await loadMatrixMarket(join(DATASETS, 'wiki-Vote.mtx'), { format: 'coordinate' }));
  });

  it('4elt.graph (METIS) equals 4elt.mtx', async () => {
    const g = await loadMetis(join(DATASETS, 'raw/4elt.graph'));
    expect(g.symmetric).toBe(true);
    expectSameCsr(g, await loadMatrixMarket(join(DATASETS, '4elt.mtx'), { format: 'coordinate' }));
  });
});
