// A rank that dies or hangs mid-run ends the job with a clear line on every other rank, well
// within a timeout, instead of leaving them waiting: killed, the launcher ends the job and each
// rank says what it was waiting in; hung, the others' collective times out (2 s here) and ends
// the job. Real processes under mpirun; skipped where the build has no MPI or no launcher.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mpiReady, mpirun } from '../support/mpirun.js';

const run = (how: 'kill' | 'hang') => mpirun(3, ['--import', 'tsx', join(import.meta.dirname, 'fixtures', 'rank-failure.mts'), how]);

describe.skipIf(!mpiReady)('a rank that fails mid-run', () => {
  it('killed: the job ends within seconds, each other rank saying what it was waiting in', async () => {
    const r = await run('kill');
    expect(r.code).not.toBe(0);
    expect(r.seconds).toBeLessThan(30);
    expect(r.out).not.toMatch(/finished/);
    for (const rank of [0, 2]) expect(r.err).toMatch(new RegExp(`dype: rank ${rank} of 3: the MPI launcher is ending the job .* waiting in comm\\.alltoallv`));
  }, 60_000);

  it('hung: the others time out after 2 s and end the job', async () => {
    const r = await run('hang');
    expect(r.code).not.toBe(0);
    expect(r.seconds).toBeLessThan(30);
    expect(r.out).not.toMatch(/finished/);
    expect(r.err).toMatch(/dype: rank [02] of 3: comm\.alltoallv has waited 2 s for the other ranks \(one may have died or hung\); ending the job/);
  }, 60_000);
});
