// scripts/cuda-config.cjs decides at build time whether the addon gets CUDA: only where nvcc and
// the static CUDA runtime exist, and never when DYPE_CUDA=0.

import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/datasets.js';

const script = join(repoRoot, 'scripts', 'cuda-config.cjs');
function query(what: string, env: Record<string, string>): string {
  return execFileSync(process.execPath, [script, what], { env: { ...process.env, ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

describe('cuda-config', () => {
  it('DYPE_CUDA=0 turns CUDA off whatever is installed', () => {
    expect(query('enabled', { DYPE_CUDA: '0' })).toBe('0');
    expect(query('off', { DYPE_CUDA: '0' })).toBe('3');
  });

  it('no nvcc on the PATH or in CUDA_HOME: off, with that reason', () => {
    const env = { DYPE_CUDA: '', CUDA_HOME: '/nonexistent-cuda', PATH: '/nonexistent-bin' };
    expect(query('enabled', env)).toBe('0');
    expect(query('off', env)).toBe('1');
  });

  it('an unknown query is a usage error', () => {
    expect(() => query('colour', {})).toThrow();
  });
});
