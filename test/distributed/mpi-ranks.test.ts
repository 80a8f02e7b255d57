// Distributed SpMM and BFS on real MPI ranks (mpirun, 2 and 4 processes on this host): the
// gathered products and depths equal the single-process reference, for row-block and METIS
// partitions; SpMM sends exactly the halos' rows; BFS sends at most half the Graph500 reference's
// bytes on every top-down level (each remote vertex once, 4 bytes against 8 per edge) and within
// the issue's 1.5x on every level. Skipped, saying why, where the build has no MPI or no launcher is installed.
// Without a launcher, initMpi refuses by type.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { initMpi, launchedBy, mpiInfo } from '../../src/distributed/mpi.js';
import { UnsupportedError } from '../../src/errors.js';
import { repoRoot } from '../support/datasets.js';
import { mpiReady, mpiSkipReason, mpirun } from '../support/mpirun.js';

const info = mpiInfo();
const ready = mpiReady;
const why = mpiSkipReason;

/** A distributed bench script on `ranks` ranks, one kernel thread each (two cores here). */
const bench = (ranks: number, name: string, args: string[]) =>
  mpirun(ranks, ['--import', 'tsx', join(repoRoot, 'bench', 'distributed', name), ...args], { env: { DYPE_THREADS: '1' } });

describe('initMpi without a launcher', () => {
  it('refuses with a typed error that says how to launch', () => {
    if (launchedBy()) return; // this test process itself runs under a launcher
    expect(() => initMpi()).toThrow(UnsupportedError);
    expect(() => initMpi()).toThrow(info.available ? /not started by an MPI launcher.*mpirun -np N/ : /has no MPI/);
  });

  it('refuses a collective timeout that is not seconds, given or from DYPE_MPI_TIMEOUT', () => {
    expect(() => initMpi({ timeoutSeconds: 0 })).toThrow(/initMpi: the collective timeout must be seconds in \(0, 604800\]/);
    expect(() => initMpi({ timeout: 5 } as never)).toThrow(/unknown option "timeout"/);
    const saved = process.env['DYPE_MPI_TIMEOUT'];
    process.env['DYPE_MPI_TIMEOUT'] = 'soon';
    try {
      expect(() => initMpi()).toThrow(/DYPE_MPI_TIMEOUT\), got NaN/);
    } finally {
      if (saved === undefined) delete process.env['DYPE_MPI_TIMEOUT'];
      else process.env['DYPE_MPI_TIMEOUT'] = saved;
    }
  });
});

describe.skipIf(!ready)(`distributed SpMM under mpirun${ready ? '' : ` (skipped: ${why})`}`, () => {
  for (const ranks of [2, 4])
    it(`${ranks} ranks: every product equals the reference and sends exactly the halos`, async () => {
      for (const graph of ['kron:10', 'grid:40x30']) {
        const run = await bench(ranks, 'spmm-ranks.ts', ['--graph', graph, '--k', '8', '--rounds', '1']);
        expect(run.err.includes('Error') ? run.err : '').toBe('');
        expect(run.code).toBe(0);
        const lines = run.out
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { ranks: number; correct: boolean; precision: string; haloRows: number; bytesSent: number; threadLevel: string });
        expect(lines.length).toBeGreaterThanOrEqual(2); // f32 and f64, per partitioner
        for (const l of lines) {
          expect(l).toMatchObject({ ranks, correct: true, threadLevel: 'serialized' });
          expect(l.bytesSent).toBe(l.haloRows * 8 * (l.precision === 'f32' ? 4 : 8));
        }
      }
    }, 120_000);
});

describe.skipIf(!ready)(`distributed BFS under mpirun${ready ? '' : ` (skipped: ${why})`}`, () => {
  for (const ranks of [2, 4])
    it(`${ranks} ranks: depths equal the reference; each level sends what the Graph500 reference would, or less`, async () => {
      for (const graph of ['kron:11', 'grid:40x30']) {
        const run = await bench(ranks, 'bfs-ranks.ts', ['--graph', graph, '--sources', '2']);
        expect(run.err.includes('Error') ? run.err : '').toBe('');
        expect(run.code).toBe(0);
        const lines = run.out
          .trim()
          .split('\n')
          .map(
            (l) =>
              JSON.parse(l) as {
                ranks: number;
                correct: boolean;
                worstLevelRatio: number;
                levels: { direction: string; bytes: number; graph500Bytes: number }[];
              },
          );
        expect(lines.length).toBeGreaterThanOrEqual(2);
        for (const l of lines) {
          expect(l).toMatchObject({ ranks, correct: true });
          expect(l.worstLevelRatio).toBeLessThanOrEqual(1.5);
          for (const level of l.levels) if (level.direction === 'top-down') expect(level.bytes).toBeLessThanOrEqual(0.5 * level.graph500Bytes);
        }
        if (graph.startsWith('kron')) expect(lines.some((l) => l.levels.some((x) => x.direction === 'bottom-up'))).toBe(true);
      }
    }, 120_000);
});
