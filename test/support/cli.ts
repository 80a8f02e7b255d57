// Runs the dype CLI in-process and captures stdout lines, stderr and the exit code.

import { vi } from 'vitest';
import { main } from '../../src/cli/main.js';

export async function runCli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true));
  try {
    const code = await main(argv, (s) => {
      out.push(s);
    });
    return { code, out: out.join('\n'), err: err.join('') };
  } finally {
    spy.mockRestore();
  }
}
