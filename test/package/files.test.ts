// What `npm pack` puts in the tarball is enough to install it: every script binding.gyp runs at
// build time, every file the install script needs, and the built outputs the package's entry
// points name. (binding.gyp ran scripts/cuda-config.cjs, which `files` left out, so installing the
// packed package failed in node-gyp.) The full install of the tarball into an empty project is a
// CI step: test/first-day/package.check.ts.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/datasets.js';

let packed: Set<string>;

beforeAll(() => {
  // --ignore-scripts: list what would be packed without building (prepare) first.
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const out = execFileSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const [info] = JSON.parse(out) as [{ files: { path: string }[] }];
  packed = new Set(info.files.map((f) => f.path));
});

describe('the packed package', () => {
  it('holds every script binding.gyp runs while the addon builds', () => {
    const gyp = readFileSync(join(repoRoot, 'binding.gyp'), 'utf8');
    const scripts = [...gyp.matchAll(/<!@?\(\s*node\s+(?!-)([^\s)]+)/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const s of new Set(scripts)) expect(packed.has(s), s).toBe(true);
  });

  it('holds every file its install script names and the native sources binding.gyp compiles', () => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    for (const s of pkg.scripts['install']!.match(/scripts\/[\w.-]+/g) ?? []) expect(packed.has(s), s).toBe(true);
    const gyp = readFileSync(join(repoRoot, 'binding.gyp'), 'utf8');
    const sources = [...gyp.matchAll(/"(native\/[^"]+\.(?:cc|cpp|cu|h))"/g)].map((m) => m[1]!);
    expect(sources.length).toBeGreaterThan(0);
    for (const s of sources) expect(packed.has(s), s).toBe(true);
  });

  it('leaves out tests, benchmarks and build output', () => {
    const stray = [...packed].filter((p) => /^(test|bench|build|coverage|node_modules|\.ci)\//.test(p));
    expect(stray).toEqual([]);
  });
});
