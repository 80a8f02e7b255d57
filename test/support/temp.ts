// Temporary folders for tests: each one is removed after the test file that made it, so a run
// of `npm test` leaves nothing behind in the system's temporary folder.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const made: string[] = [];

// Registered once per test file: vitest evaluates this module afresh for every file.
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A new empty folder under the system's temporary folder, removed after this test file. */
export function tempFolder(prefix = 'dype-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
