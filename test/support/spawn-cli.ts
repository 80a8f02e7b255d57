// Runs the built `dype` (dist/cli/main.js) in a child process, as a user would: its own working
// folder and environment, stdout and stderr captured, the exit code returned.

import { spawn } from 'node:child_process';
import { builtCli } from './build-cli.js';

export interface CliRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

export function spawnCli(args: readonly string[], options: { cwd: string; env?: Record<string, string> }): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [builtCli, ...args], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, out: Buffer.concat(out).toString('utf8'), err: Buffer.concat(err).toString('utf8') }));
  });
}
