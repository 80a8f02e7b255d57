// The planner's exchange against a run's, on real MPI ranks (bench/distributed/plan-vs-run.ts):
// for each rank, what planNodes predicted for its halo exchanges beside what runDistributed spent
// in them, and the slowest rank's of each. The figures depend on the machine; what is checked is
// that both sides are there, finite and positive, for every rank of both partitions, and that a
// rank's measured exchange lies within its measured run (the exchange is part of the run).

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/datasets.js';
import { mpiReady, mpiSkipReason, mpirun } from '../support/mpirun.js';

interface Line {
  readonly ranks: number;
  readonly partitioner: string;
  readonly perRankUs: readonly { exchangePredicted: number; exchangeMeasured: number; totalPredicted: number; totalMeasured: number }[];
  readonly exchangePredictedOverMeasured: number;
  readonly labels: string;
}

describe.skipIf(!mpiReady)(`planNodes' exchange against a run${mpiReady ? '' : ` (skipped: ${mpiSkipReason})`}`, () => {
  it('2 ranks: every rank reports its predicted and measured exchange, for row blocks and METIS', async () => {
    const run = await mpirun(
      2,
      ['--import', 'tsx', join(repoRoot, 'bench', 'distributed', 'plan-vs-run.ts'), '--graphs', 'grid:60x50', '--workloads', 'gcn', '--rounds', '2'],
      { env: { DYPE_THREADS: '1' } },
    );
    expect(run.err.includes('Error') ? run.err : '').toBe('');
    expect(run.code).toBe(0);
    const lines = run.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Line);
    expect(lines.length).toBeGreaterThanOrEqual(1);
    for (const l of lines) {
      expect(l.ranks).toBe(2);
      expect(l.labels).toMatch(/predicted: planNodes.*measured: runDistributed/);
      expect(l.perRankUs).toHaveLength(2);
      for (const r of l.perRankUs) {
        expect(r.exchangePredicted).toBeGreaterThan(0);
        expect(r.exchangeMeasured).toBeGreaterThan(0);
        expect(r.exchangeMeasured).toBeLessThanOrEqual(r.totalMeasured);
        expect(r.totalPredicted).toBeGreaterThanOrEqual(r.exchangePredicted);
      }
      expect(Number.isFinite(l.exchangePredictedOverMeasured) && l.exchangePredictedOverMeasured > 0).toBe(true);
    }
  }, 180_000);
});
