// The bottom-up step's scan of a vertex's in-edges (native/src/kernels/bfs_steps.h, bfs_scan.h):
// one edge at a time, or (AVX-512 builds on Intel) the first few one at a time and the rest 16 at
// a time with gathers. Under both, a parent at any position of a long row is found, the first of
// several is taken, and an index outside the graph met before any parent is reported, whichever
// part of the scan meets it. Each scan runs in a child process forced to it (DYPE_BFS_GATHER);
// on a build without AVX-512 both children run the one-at-a-time scan.

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scanChecks } from '../support/bfs-scan-checks.js';

const script = fileURLToPath(new URL('../support/bfs-scan-checks.ts', import.meta.url));

function runChecks(gather: '0' | '1'): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      env: { ...process.env, DYPE_BFS_GATHER: gather },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
    child.stderr.on('data', (b: Buffer) => (out += b.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, out }));
  });
}

describe('bottom-up scan of long in-edge rows', () => {
  it('finds parents and reports bad indices with the scan this machine takes', async () => {
    await scanChecks();
  });

  it.each(['0', '1'] as const)('does so with DYPE_BFS_GATHER=%s', async (gather) => {
    const r = await runChecks(gather);
    expect(r.out.trim(), r.out).toBe('ok');
    expect(r.code).toBe(0);
  });
});
