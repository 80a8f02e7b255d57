// Where the shared real datasets live (beside the checkout, or $DYPE_DATASETS) and how suites
// load them; a missing folder or file is a skip with a message, never a failure.

import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CsrMatrix } from '../../src/data/csr.js';
import type { Precision } from '../../src/data/dense.js';
import { loadMatrixMarket } from '../../src/io/index.js';

export const repoRoot = resolve(fileURLToPath(import.meta.url), '..', '..', '..');

export function datasetsDir(): string {
  return process.env['DYPE_DATASETS'] ?? resolve(repoRoot, '..', 'shared', 'datasets');
}

/** The matrix `<name>.mtx` from the datasets folder, or why it is unavailable. */
export async function loadDataset(name: string, precision: Precision): Promise<{ matrix: CsrMatrix } | { matrix: undefined; reason: string }> {
  const path = join(datasetsDir(), `${name}.mtx`);
  if (!existsSync(path)) return { matrix: undefined, reason: `${path} not found (set DYPE_DATASETS to the datasets folder)` };
  return { matrix: await loadMatrixMarket(path, { precision, format: 'coordinate' }) };
}
