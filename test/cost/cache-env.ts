// Each cache test runs against its own temporary DYPE_CACHE_DIR, restored afterwards, so no test
// reads or writes the user's real cache.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';

/** Registers hooks; `dir()` is the current test's cache folder (not created until written). */
export function useTempCacheDir(): { dir: () => string; root: () => string } {
  let root = '';
  const saved = process.env['DYPE_CACHE_DIR'];
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'dype-cache-'));
    process.env['DYPE_CACHE_DIR'] = join(root, 'cache');
  });
  afterEach(() => {
    if (saved === undefined) delete process.env['DYPE_CACHE_DIR'];
    else process.env['DYPE_CACHE_DIR'] = saved;
    rmSync(root, { recursive: true, force: true });
  });
  return { dir: () => join(root, 'cache'), root: () => root };
}

export const META = { modelVersion: 3, fingerprint: '0123456789abcdef' } as const;
