// `dype kernels` runs end to end, prints measured figures, and follows the CLI conventions
// (help, unknown flags with suggestions, exit codes 0/1/2).

import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const run = runCli;

describe('dype kernels', () => {
  it('prints a table of measured kernel times for a generated graph', async () => {
    const r = await run(['kernels', '--generate', 'kronecker:scale=10,seed=2', '--repeats', '2', '--sources', '3']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/kronecker:scale=10,seed=2: 1,024 x 1,024/);
    expect(r.out).toMatch(/all figures measured/);
    for (const kernel of ['SpMM f32 k=32', 'SpMV f32', 'BFS \\(3 sources\\)', 'multi-source BFS \\(3\\)']) {
      expect(r.out).toMatch(new RegExp(kernel));
    }
  });

  it('--json gives one machine-readable object', async () => {
    const r = await run(['kernels', '--generate', 'grid:rows=20,cols=30', '--k', '8', '--precision', 'f64', '--repeats', '1', '--sources', '2', '--json']);
    expect(r.code).toBe(0);
    // biome-ignore lint/suspicious/noExplicitAny: the test walks the JSON output's fields freely
    const o = JSON.parse(r.out) as Record<string, any>;
    expect(o['input']).toMatchObject({ rows: 600, cols: 600, origin: 'generated', symmetric: true });
    expect(o['source']).toBe('measured');
    expect(o['spmm']).toMatchObject({ k: 8, precision: 'f64' });
    expect(o['spmm'].medianMs).toBeGreaterThan(0);
    expect(o['bfs'].searches).toBe(2);
    expect(o['bfs'].maxLevels).toBeGreaterThan(10);
  });

  it('usage errors exit 2 with one line and a suggestion', async () => {
    let r = await run(['kernels', '--sorces', '3']);
    expect(r.code).toBe(2);
    expect(r.err).toBe('dype: kernels: unknown option --sorces (did you mean --sources?); see dype kernels --help\n');
    r = await run(['kernals']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/unknown command "kernals" \(did you mean kernels\?\)/);
    r = await run(['kernels', '--k', 'ten']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--k must be an integer/);
    r = await run(['kernels', '--generate', 'kroneker:scale=3']);
    expect(r.code).toBe(2);
    expect(r.err.split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('a missing file is a failure (exit 1), and --help prints examples', async () => {
    const r = await run(['kernels', '--data', '/nonexistent/graph.mtx']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^dype: loadMatrixMarket: cannot access/);
    const h = await run(['kernels', '--help']);
    expect(h.code).toBe(0);
    expect(h.out).toMatch(/Examples:/);
    expect((await run(['--help'])).out).toMatch(/Commands:/);
  });
});
