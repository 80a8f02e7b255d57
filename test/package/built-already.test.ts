// The install and prepare scripts skip the build for a checkout that is built already when npm
// runs them on behalf of another folder: npx linking it, or `npm install <this folder>` from
// another project (which rebuilt everything in the source folder); in the checkout itself, and
// for a tarball install (no build/ yet), they build.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/datasets.js';
import { tempFolder } from '../support/temp.js';

const script = join(repoRoot, 'scripts', 'built-already.mjs');
const built = ['build/Release/dype_native.node', 'wasm/dype.wasm', 'dist/cli/main.js'].every((f) => existsSync(join(repoRoot, f)));

function exitCode(env: Record<string, string | undefined>): number | null {
  const clean = { ...process.env };
  delete clean['INIT_CWD'];
  delete clean['npm_command'];
  return spawnSync(process.execPath, [script], { env: { ...clean, ...env } as NodeJS.ProcessEnv }).status;
}

describe.skipIf(!built)('scripts/built-already.mjs', () => {
  it('skips the build of a built checkout installed from another project or linked by npx', () => {
    expect(exitCode({ INIT_CWD: tempFolder('dype-other-project-') })).toBe(0);
    expect(exitCode({ npm_command: 'exec', INIT_CWD: repoRoot })).toBe(0);
  });

  it('builds when npm runs in the checkout itself', () => {
    expect(exitCode({ INIT_CWD: repoRoot })).toBe(1);
    expect(exitCode({})).toBe(1);
  });
});
