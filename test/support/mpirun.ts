// Starting real MPI jobs from tests: `mpirun` with N ranks of a node command, as root where the
// container runs so (Open MPI's consent variables), more ranks than cores allowed, stdout and
// stderr captured; and whether this machine can (an MPI build and a launcher).

import { spawn, spawnSync } from 'node:child_process';
import { mpiInfo } from '../../src/distributed/mpi.js';
import { repoRoot } from './datasets.js';

export const mpiReady = mpiInfo().available && spawnSync('mpirun', ['--version']).status === 0;
export const mpiSkipReason = !mpiInfo().available ? `the build has no MPI: ${mpiInfo().reason}` : 'mpirun is not installed';

export interface MpiJob {
  readonly code: number;
  readonly out: string;
  readonly err: string;
  readonly seconds: number;
}

/** Run `node ...nodeArgs` on `ranks` ranks; `env` is added to this process's environment. */
export function mpirun(ranks: number, nodeArgs: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<MpiJob> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn('mpirun', ['--oversubscribe', '-np', String(ranks), process.execPath, ...nodeArgs], {
      cwd: options.cwd ?? repoRoot,
      env: { ...process.env, OMPI_ALLOW_RUN_AS_ROOT: '1', OMPI_ALLOW_RUN_AS_ROOT_CONFIRM: '1', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, out, err, seconds: (performance.now() - t0) / 1000 }));
  });
}
