// Vitest global set-up: the end-to-end CLI tests run the built `dist/cli/main.js` as a user
// would, so rebuild the TypeScript first when any source is newer than that build
// (DYPE_SKIP_CLI_BUILD=1 skips it, for runs that include no CLI test).

import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { repoRoot } from './datasets.js';

export const builtCli = join(repoRoot, 'dist', 'cli', 'main.js');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

export default function setup(): void {
  // A machine that only runs device tests (bench/gpu/device-check.sh) carries no TypeScript
  // compiler and runs no CLI test.
  if (process.env['DYPE_SKIP_CLI_BUILD'] === '1') return;
  ensureBuilt();
}

/** Rebuild `dist/` when any source is newer than its CLI (also used by benches that time the build). */
export function ensureBuilt(): void {
  if (!(existsSync(builtCli) && statSync(builtCli).mtimeMs >= newestSource(join(repoRoot, 'src')))) {
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: repoRoot, stdio: 'inherit' });
    chmodSync(builtCli, 0o755);
  }
  // As `npm run build:ts` does: the portable cores' declarations get their AssemblyScript types (idempotent).
  execFileSync(process.execPath, [join(repoRoot, 'scripts', 'portable-declarations.mjs'), join(repoRoot, 'dist')], { cwd: repoRoot, stdio: 'ignore' });
}
