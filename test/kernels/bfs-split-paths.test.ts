// Candidate top-down levels run split across the pool or on one thread as the search measures
// faster (native/src/kernels/bfs_split_choice.h); DYPE_BFS_SPLIT forces one way. Each way, and the
// measured choice, gives the reference depths and a valid parent tree on graphs whose levels are
// candidates (a mesh, a random graph), with the pool at two threads.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const fixture = join(import.meta.dirname, 'fixtures', 'bfs-split-paths.mts');

describe('bfs: split and one-thread candidate levels', () => {
  for (const mode of ['0', '1', 'measured']) {
    it(`gives the reference depths and parents (DYPE_BFS_SPLIT=${mode})`, () => {
      const env = { ...process.env, DYPE_THREADS: '2', DYPE_BFS_SPLIT: mode === 'measured' ? '' : mode };
      const out = execFileSync(process.execPath, ['--import', 'tsx', fixture], { env, encoding: 'utf8' });
      expect(JSON.parse(out)).toEqual({ searches: 24, wrongDepths: 0, wrongParents: 0 });
    }, 60_000);
  }
});
