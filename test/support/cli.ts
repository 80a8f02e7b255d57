// Runs the dype CLI in-process and captures stdout lines, stderr and the exit code. Each call
// runs in a fresh empty working folder (the test pool runs files in child processes, where
// chdir is allowed), so a test never reads or writes the folder `npm test` was started in, and
// `files` says what the command left in its working folder.

import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vi } from 'vitest';
import { main } from '../../src/cli/main.js';

export interface CliResult {
  readonly code: number;
  readonly out: string;
  readonly err: string;
  /** What the command wrote into its working folder, sorted. */
  readonly files: string[];
}

export async function runCli(argv: string[], options: { readonly cwd?: string } = {}): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const cwd = options.cwd ?? mkdtempSync(join(tmpdir(), 'dype-cli-'));
  const previous = process.cwd();
  process.chdir(cwd);
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((s) => {
    err.push(String(s));
    return true;
  });
  try {
    const code = await main(argv, (s) => {
      out.push(s);
    });
    return { code, out: out.join('\n'), err: err.join(''), files: readdirSync(cwd).sort() };
  } finally {
    spy.mockRestore();
    process.chdir(previous);
    if (options.cwd === undefined) rmSync(cwd, { recursive: true, force: true });
  }
}
