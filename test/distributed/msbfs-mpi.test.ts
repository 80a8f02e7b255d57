// Distributed multi-source BFS on real MPI ranks (mpirun, 2 processes on this host): every
// source's gathered depths equal the single-process reference, in one batch and across two, and
// the batch takes fewer rounds of exchanges than the same sources searched one by one. Skipped,
// saying why, where the build has no MPI or no launcher is installed.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/datasets.js';
import { mpiReady, mpiSkipReason, mpirun } from '../support/mpirun.js';

describe.skipIf(!mpiReady)(`distributed multi-source BFS under mpirun${mpiReady ? '' : ` (skipped: ${mpiSkipReason})`}`, () => {
  it('2 ranks: every source equals the reference; fewer rounds than single searches', async () => {
    for (const graph of ['kron:10', 'grid:30x20']) {
      const run = await mpirun(
        2,
        ['--import', 'tsx', join(repoRoot, 'bench', 'distributed', 'msbfs-ranks.ts'), '--graph', graph, '--sources', '40', '--rounds', '1'],
        {
          env: { DYPE_THREADS: '1' },
        },
      );
      expect(run.err.includes('Error') ? run.err : '').toBe('');
      expect(run.code).toBe(0);
      const lines = run.out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { ranks: number; sources: number; correct: boolean; batchRounds: number; singleRounds: number });
      expect(lines.length).toBeGreaterThanOrEqual(1);
      for (const l of lines) {
        expect(l).toMatchObject({ ranks: 2, sources: 40, correct: true });
        expect(l.batchRounds).toBeLessThan(l.singleRounds);
      }
    }
  }, 120_000);
});
