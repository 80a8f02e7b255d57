// The README's library example is examples/quick-start.ts, which CI runs: the block shown is the
// file (less its header comment, importing from 'dype'), so what a newcomer copies works. The
// README's links point at files that exist.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/datasets.js';

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');

describe('the README', () => {
  it('shows examples/quick-start.ts as its library example', () => {
    const block = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    const file = readFileSync(join(repoRoot, 'examples', 'quick-start.ts'), 'utf8')
      .replace(/^(\/\/.*\n)+/, '')
      .replace("from '../src/index.js'", "from 'dype'");
    expect(block).toBe(file);
  });

  it('links only to files that exist', () => {
    const links = [...readme.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)].map((m) => m[1]!).filter((l) => !/^https?:/.test(l));
    expect(links.length).toBeGreaterThan(5);
    for (const l of links) expect(existsSync(join(repoRoot, l)), l).toBe(true);
  });

  it('stays a page a newcomer reads in ten minutes', () => {
    expect(readme.split('\n').length).toBeLessThan(200);
  });
});

describe('the docs', () => {
  it('link only to files that exist', () => {
    const docs = join(repoRoot, 'docs');
    for (const name of ['cli.md', 'library.md', 'devices.md', 'performance.md', 'development.md', 'cost-model.md']) {
      const text = readFileSync(join(docs, name), 'utf8');
      for (const m of text.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
        const l = m[1]!;
        if (/^https?:/.test(l)) continue;
        expect(existsSync(join(dirname(join(docs, name)), l)), `${name}: ${l}`).toBe(true);
      }
    }
  });
});
