// docs/cli.md names every shipped workload where it says what WORKLOAD may be, as the commands'
// --help does: it left out `gat`, which `dype explore --help` lists.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { shippedWorkloads } from '../../src/workloads/library.js';
import { repoRoot } from '../support/datasets.js';

it('lists every shipped workload in the WORKLOAD sentence', () => {
  const text = readFileSync(join(repoRoot, 'docs', 'cli.md'), 'utf8');
  const sentence = /WORKLOAD is a shipped workload \(([^;]*);/.exec(text)?.[1];
  expect(sentence).toBeDefined();
  const listed = [...sentence!.matchAll(/`([\w-]+)`/g)].map((m) => m[1]).sort();
  expect(listed).toEqual([...shippedWorkloads()].sort());
});
