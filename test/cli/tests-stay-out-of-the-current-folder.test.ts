// No test reads or writes a file by a path relative to the folder `npm test` runs in: a user who
// ran the quick start there (which writes dype-front.png) must still see the suite pass, and the
// suite must leave the checkout as it found it. In-process CLI runs get a fresh working folder
// of their own (test/support/cli.ts); files are made under the temporary folder.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/datasets.js';

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? testFiles(path) : /\.(ts|mts|mjs)$/.test(e.name) ? [path] : [];
  });
}

// A file-system call whose first argument is a string literal that is neither absolute nor
// built from a folder: `existsSync('dype-front.png')`, `readFileSync("out.json")`.
const RELATIVE_FS_CALL =
  /\b(existsSync|readFileSync|writeFileSync|statSync|readdirSync|rmSync|unlinkSync|mkdirSync|readFile|writeFile|rm|stat|access|accessSync)\(\s*(['"`])(?![/$])[^'"`]*\2/g;

describe('tests and the current folder', () => {
  it('no test touches a file by a path relative to the folder it runs in', () => {
    const offenders: string[] = [];
    for (const file of testFiles(join(repoRoot, 'test'))) {
      const text = readFileSync(file, 'utf8').replace(/^\s*\/\/.*$/gm, '');
      for (const m of text.matchAll(RELATIVE_FS_CALL)) {
        const line = text.slice(0, m.index).split('\n').length;
        offenders.push(`${relative(repoRoot, file)}:${line}: ${m[0]}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
