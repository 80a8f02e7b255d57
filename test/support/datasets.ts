// Where the shared real datasets live (beside the checkout), so tests can use them when present
// and skip cleanly in a user's clone that lacks them.

import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const sharedDatasets = process.env['DYPE_DATASETS'] ?? resolve(repoRoot, '..', 'shared', 'datasets');
export const haveDatasets = existsSync(sharedDatasets);

/** Matrix Market files in the shared folder, sorted by name (empty when the folder is absent). */
export function datasetFiles(): string[] {
  if (!haveDatasets) return [];
  return readdirSync(sharedDatasets)
    .filter((f) => f.endsWith('.mtx'))
    .sort()
    .map((f) => join(sharedDatasets, f));
}
