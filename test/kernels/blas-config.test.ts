// scripts/blas-config.cjs decides at build time whether the addon's GEMM calls OpenBLAS: only
// where OpenBLAS's own cblas.h and libopenblas exist, and never when DYPE_BLAS=0; the addon says
// which GEMM it got (gemmInfo), and why when it is the built-in one.

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gemmLibrary } from '../../src/kernels/dense.js';
import { repoRoot } from '../support/datasets.js';

const script = join(repoRoot, 'scripts', 'blas-config.cjs');
function query(what: string, env: Record<string, string>): string {
  return execFileSync(process.execPath, [script, what], { env: { ...process.env, ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

describe('blas-config', () => {
  it('DYPE_BLAS=0 turns OpenBLAS off whatever is installed', () => {
    expect(query('enabled', { DYPE_BLAS: '0' })).toBe('0');
    expect(query('off', { DYPE_BLAS: '0' })).toBe('3');
  });

  it('finds the headers where libopenblas-dev put them', () => {
    const found = query('enabled', { DYPE_BLAS: '' }) === '1';
    expect(found).toBe(existsSync(join(query('include', { DYPE_BLAS: '' }), 'openblas_config.h')));
  });

  it('an unknown query is a usage error', () => {
    expect(() => query('colour', {})).toThrow();
  });

  it('the addon names its GEMM, and why it is the built-in one', () => {
    const g = gemmLibrary();
    expect(['openblas', 'builtin']).toContain(g.library);
    expect(g.threads).toBeGreaterThanOrEqual(1);
    if (g.library === 'openblas') expect(g.version).toMatch(/^\d+\.\d+/);
    else expect(g.reason.length).toBeGreaterThan(0);
  });
});
