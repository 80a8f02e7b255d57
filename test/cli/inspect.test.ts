// `dype inspect` prints the cost-model features of a file or generated input, adds BFS features
// with --graph, prints one JSON object with --json, and refuses bad flags with suggestions.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { tempFolder } from '../support/temp.js';

describe('dype inspect', () => {
  it('prints the feature table and the row-length chart', async () => {
    const r = await runCli(['inspect', '--generate', 'kronecker:scale=10']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^row length Gini\s+0\.\d+/m);
    expect(r.out).toMatch(/^power law\s+/m);
    expect(r.out).toMatch(/^coverage\s+exact/m);
    expect(r.out).toMatch(/Row lengths \(log2 buckets\)\n\s+0 \| #+ [\d,]+/);
    expect(r.out).not.toMatch(/BFS/);
  });

  it('reads a file given as a positional argument, and --graph adds BFS features', async () => {
    const dir = tempFolder('dype-inspect-');
    const file = join(dir, 'path.mtx');
    writeFileSync(file, '%%MatrixMarket matrix coordinate pattern symmetric\n4 4 3\n2 1\n3 2\n4 3\n');
    const r = await runCli(['inspect', file, '--graph']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Input: path\.mtx/m);
    expect(r.out).toMatch(/^bandwidth\s+1$/m);
    expect(r.out).toMatch(/^diameter estimate\s+3$/m);
  });

  it('--json prints one object with plain arrays', async () => {
    const r = await runCli(['inspect', '--generate', 'grid:rows=20,cols=20', '--graph', '--json']);
    expect(r.code).toBe(0);
    const o = JSON.parse(r.out) as {
      matrix: { rows: number; rowLength: { histogram: unknown }; powerLaw: { state: string } };
      graph: { frontier: unknown; diameterEstimate: number };
    };
    expect(o.matrix.rows).toBe(400);
    expect(Array.isArray(o.matrix.rowLength.histogram)).toBe(true);
    expect(o.matrix.powerLaw.state).toBe('not-fitted');
    expect(Array.isArray(o.graph.frontier)).toBe(true);
    expect(o.graph.diameterEstimate).toBe(38);
  });

  it('--help shows usage and examples', async () => {
    const r = await runCli(['inspect', '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Usage: dype inspect/);
    expect(r.out).toMatch(/Examples:\n\s+dype inspect/);
  });

  it('rejects unknown flags with a suggestion, and two inputs', async () => {
    const r = await runCli(['inspect', '--grahp']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^dype: inspect: unknown option --grahp \(did you mean --graph\?\)/);
    const both = await runCli(['inspect', 'a.mtx', '--data', 'b.mtx']);
    expect(both.code).toBe(2);
    expect(both.err).toMatch(/give FILE or --data, not both/);
  });
});
