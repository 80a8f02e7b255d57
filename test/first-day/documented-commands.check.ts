// Every command the README shows and every example of every `--help`, run as a user would: the
// built `dype` in a folder of its own, beside a `shared/datasets` (the README's
// ../shared/datasets paths), with the files the examples name (graph.mtx, graph.tsv) and the
// checkout's examples/ folder. Each must exit 0 and leave only files that this checkout's
// .gitignore covers, when run in the checkout.

import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { haveDatasets, repoRoot, sharedDatasets } from '../support/datasets.js';
import { spawnCli } from '../support/spawn-cli.js';
import { tempFolder } from '../support/temp.js';

const COMMANDS = ['explore', 'run', 'inspect', 'kernels', 'calibrate', 'system'];

/** `dype ...` lines of the README's shell blocks (npm install is what got us here). */
function readmeCommands(): string[] {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return blocks
    .flatMap((b) => b.split('\n'))
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l.startsWith('npx dype'))
    .map((l) => l.replace(/^npx /, ''));
}

/** The Examples: lines of `dype --help` and of each command's help (text after two spaces is a description). */
function helpCommands(): string[] {
  const help = (args: string[]): string => execFileSync(process.execPath, [join(repoRoot, 'dist', 'cli', 'main.js'), ...args], { encoding: 'utf8' });
  return [help(['--help']), ...COMMANDS.map((c) => help([c, '--help']))].flatMap((text) => {
    const examples = text.split('\nExamples:\n')[1] ?? '';
    return examples
      .split('\n')
      .map((l) => l.trim().split(/\s{2,}/)[0]!)
      .filter((l) => l.startsWith('dype'));
  });
}

/** Shell-like words (no quoting is used in the documented commands). */
const words = (line: string): string[] => line.split(/\s+/).slice(1);

let work = '';
let cache = '';

beforeAll(() => {
  const root = tempFolder('dype-documented-');
  work = join(root, 'work');
  mkdirSync(work);
  mkdirSync(join(root, 'shared'));
  if (haveDatasets) symlinkSync(sharedDatasets, join(root, 'shared', 'datasets'), 'dir');
  symlinkSync(join(repoRoot, 'examples'), join(work, 'examples'), 'dir');
  copyFileSync(join(repoRoot, 'examples', 'data', 'interactions.tsv'), join(work, 'graph.tsv'));
  // graph.mtx: a small undirected graph, a ring with chords.
  const n = 200;
  const edges: string[] = [];
  for (let i = 1; i <= n; i++) edges.push(`${(i % n) + 1} ${i}`, `${((i + 36) % n) + 1} ${i}`);
  writeFileSync(join(work, 'graph.mtx'), `%%MatrixMarket matrix coordinate pattern symmetric\n${n} ${n} ${edges.length}\n${edges.join('\n')}\n`);
  cache = tempFolder('dype-documented-cache-');
});

const documented = [...new Set([...readmeCommands(), ...helpCommands()])];

describe('every documented command', () => {
  it('finds the README commands and the help examples', () => {
    expect(readmeCommands().length).toBeGreaterThanOrEqual(8);
    expect(helpCommands().length).toBeGreaterThanOrEqual(25);
  });

  for (const line of documented) {
    const needsData = line.includes('../shared/datasets/');
    it.skipIf(needsData && !haveDatasets)(line, async () => {
      const before = new Set(readdirSync(work));
      const r = await spawnCli(words(line), { cwd: work, env: { DYPE_CACHE_DIR: cache } });
      expect({ code: r.code, err: r.code === 0 ? '' : r.err }, line).toEqual({ code: 0, err: '' });
      // What it wrote must be what .gitignore covers in this checkout (the README's promise).
      const written = readdirSync(work).filter((f) => !before.has(f));
      if (readmeCommands().includes(line)) {
        for (const f of written) {
          let ignored = true;
          try {
            execFileSync('git', ['check-ignore', '-q', f], { cwd: repoRoot });
          } catch {
            ignored = false;
          }
          expect(ignored, `${line} wrote ${f}, which .gitignore does not cover`).toBe(true);
        }
      }
    });
  }
});
