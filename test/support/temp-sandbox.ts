// Vitest global set-up: every test process (and every child it spawns) gets a temporary folder of
// its own run through TMPDIR, removed when the run ends, so a test that forgets to clean up leaves
// nothing in /tmp. What was left in it is listed on stderr, naming the folders to fix.

import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const saved = process.env['TMPDIR'];
  const sandbox = mkdtempSync(join(tmpdir(), 'dype-vitest-'));
  process.env['TMPDIR'] = sandbox;
  return () => {
    let left: string[] = [];
    try {
      left = readdirSync(sandbox);
    } catch {
      // already gone
    }
    if (left.length > 0 && process.env['DYPE_REPORT_TEMP_LEFT'] !== '0') {
      process.stderr.write(
        `temp-sandbox: tests left ${left.length} temporary entr${left.length === 1 ? 'y' : 'ies'} (removed now): ${left.sort().join(', ')}\n`,
      );
    }
    rmSync(sandbox, { recursive: true, force: true });
    if (saved === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = saved;
  };
}
