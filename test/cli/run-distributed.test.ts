// `dype run --distributed` as a user runs it: under mpirun (2 ranks) the built CLI runs GCN across
// the ranks and rank 0 alone reports, with --check, outputs within 1e-5 of the single-process
// reference, also with each rank's sparse products on its node's GPU (--rank-device); without a
// launcher it exits 1 with a line that says how to launch; its flags are refused where they do
// not apply.

import { describe, expect, it } from 'vitest';
import { mpiInfo } from '../../src/distributed/mpi.js';
import { builtCli } from '../support/build-cli.js';
import { mpiReady, mpirun } from '../support/mpirun.js';
import { spawnCli } from '../support/spawn-cli.js';
import { tempFolder } from '../support/temp.js';

describe('dype run --distributed', () => {
  it.skipIf(!mpiReady)(
    'runs GCN on 2 ranks; rank 0 reports outputs equal to the reference',
    async () => {
      const cwd = tempFolder('dype-run-distributed-');
      const r = await mpirun(2, [builtCli, 'run', 'gcn', '--generate', 'kron12', '--distributed', '--check', '--json'], { cwd, env: { DYPE_THREADS: '1' } });
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      const report = JSON.parse(r.out) as {
        ranks: number;
        outputs: { name: string; deviation: number }[];
        bytesSent: number;
        seconds: number;
        exchangeSeconds: number;
        transferSeconds: number;
        waitSeconds: number;
      };
      expect(report.ranks).toBe(2);
      expect(report.bytesSent).toBeGreaterThan(0);
      // The exchanges took time on some rank, and no more than that rank's operators in all.
      expect(report.exchangeSeconds).toBeGreaterThan(0);
      expect(report.exchangeSeconds).toBeLessThanOrEqual(report.seconds);
      // Split at the last rank's arrival: each part is a rank's own, so neither is over the whole.
      expect(report.transferSeconds).toBeGreaterThanOrEqual(0);
      expect(report.waitSeconds).toBeGreaterThanOrEqual(0);
      expect(report.transferSeconds).toBeLessThanOrEqual(report.exchangeSeconds);
      expect(report.waitSeconds).toBeLessThanOrEqual(report.exchangeSeconds);
      expect(report.outputs).toHaveLength(1);
      expect(report.outputs[0]!.deviation).toBeLessThanOrEqual(1e-5);
      // Each rank's sparse products on its node's (here simulated) GPU, outputs still equal.
      const g = await mpirun(2, [builtCli, 'run', 'gcn', '--generate', 'kron12', '--distributed', '--rank-device', 'gpu', '--check', '--json'], {
        cwd,
        env: { DYPE_THREADS: '1' },
      });
      expect(g.code).toBe(0);
      const onGpu = JSON.parse(g.out) as { ranksOnDevice: number; rankDevice: string; outputs: { deviation: number }[] };
      expect([onGpu.rankDevice, onGpu.ranksOnDevice]).toEqual(['gpu', 2]);
      expect(onGpu.outputs[0]!.deviation).toBeLessThanOrEqual(1e-5);
    },
    180_000,
  );

  it('without a launcher exits 1 saying how to launch; --check alone is a usage error', async () => {
    const cwd = tempFolder('dype-run-distributed-');
    const plain = await spawnCli(['run', 'bfs', '--generate', 'kron12', '--distributed'], { cwd });
    expect(plain.code).toBe(1);
    expect(plain.err).toMatch(mpiInfo().available ? /not started by an MPI launcher.*mpirun -np N/ : /has no MPI/);
    const usage = await spawnCli(['run', 'bfs', '--generate', 'kron12', '--check'], { cwd });
    expect(usage.code).toBe(2);
    expect(usage.err).toMatch(/--check applies to --distributed runs only/);
    const device = await spawnCli(['run', 'gcn', '--generate', 'kron12', '--rank-device', 'gpu'], { cwd });
    expect(device.code).toBe(2);
    expect(device.err).toMatch(/--rank-device applies to --distributed runs only/);
  }, 60_000);
});
